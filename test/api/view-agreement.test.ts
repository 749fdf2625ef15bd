/**
 * One view per transaction kind, shown the same by every path, on rows real operations wrote:
 * every status a Cash-In and a Cash-Out reach (a refund, a bank return, a refund the network failed,
 * an approval rejected, a PIX key and a bank account), read at once through the ledger's SQL
 * rendering (GET and list pages of hot rows) and the TypeScript one (events, write responses,
 * archived rows). Both must be the same bytes; the response schema (valibot, and the served OpenAPI
 * document with its objects closed) must accept that body and strip nothing from it; every field of
 * the kind's table must have shown up in some real row; and after the archive moves the closed
 * rows, GET by id and the list answer the bytes the hot rows gave. The refund failure needs the
 * sandbox partner's fault switch, so this file runs with the partner-fault files.
 */
import { runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerDb } from '../../durable-objects/ledger/db';
import { cashInJsonAt, cashOutJsonAt } from '../../durable-objects/ledger/reads/read-json';
import { cashIns, cashOuts } from '../../durable-objects/ledger/schema';
import { CashIn } from '../../src/api/cash-in/shared';
import { CashOut } from '../../src/api/cash-out/shared';
import type { RecurrenceBody } from '../../src/api/recurrence/shared';
import { CASH_IN_FIELDS, cashInView } from '../../src/domain/cash-in';
import { CASH_OUT_FIELDS, cashOutView } from '../../src/domain/cash-out';
import { addDays } from '../../src/domain/recurrence';
import { brtDate } from '../../src/domain/time';
import type { AnyField } from '../../src/domain/view-fields';
import { servedDocument, validate } from '../openapi/conformance';
import { createCashIn, payCashIn, waitFor } from '../support/cash-in';
import { createCashOut, deposit, magicKey, settled } from '../support/cash-out';
import { admin, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';
import { cashIns as hotCashIns, cashOuts as hotCashOuts } from '../support/ledger-reads';
import { recurrenceBody } from '../support/recurrence';

const GAMA = '56431109';
const PERIOD = 'from=2020-01-01&to=2100-12-31&limit=100&order=asc';

afterEach(async () => {
  expect((await admin(`/admin/partners/${GAMA}/faults`, 'DELETE')).status).toBe(204);
});

type Kind = 'cash-in' | 'cash-out';

const KINDS = {
  'cash-in': { table: cashIns, json: cashInJsonAt, view: cashInView, schema: CashIn, fields: CASH_IN_FIELDS },
  'cash-out': {
    table: cashOuts,
    json: cashOutJsonAt,
    view: cashOutView,
    schema: CashOut,
    fields: CASH_OUT_FIELDS,
  },
} as const;

/** The SQL and the TypeScript rendering of one row, in one synchronous step of its ledger. */
async function renderings(api: Integrator, kind: Kind, transactionId: string) {
  return runInDurableObject(ledgerStub(api.client.clientId), (instance, state) => {
    const db = (instance as unknown as { db: LedgerDb }).db;
    const k = KINDS[kind];
    const table = k.table as typeof cashIns;
    const row = db.select().from(table).where(eq(table.transactionId, transactionId)).get();
    if (!row) throw new Error(`${kind} ${transactionId} is not in the hot table`);
    const json = k.json(state.storage.sql, row.seq);
    const view = (k.view as (r: unknown) => unknown)(row);
    return { sql: json ?? undefined, ts: JSON.stringify(view) };
  });
}

/** Every key path a table can show (`payer.bankData`), and the ones a body shows. */
const tablePaths = (fields: readonly AnyField[], prefix = ''): string[] =>
  fields.flatMap((f) => {
    const value = f.cases[0]?.value;
    const path = `${prefix}${f.key}`;
    return value?.kind === 'object' ? [path, ...tablePaths(value.fields, `${path}.`)] : [path];
  });
const TOP_LEVEL_OBJECTS = { 'cash-in': ['payer', 'dispute'], 'cash-out': ['payee'] };
const bodyPaths = (kind: Kind, body: Record<string, unknown>): string[] =>
  Object.entries(body).flatMap(([key, value]) =>
    TOP_LEVEL_OBJECTS[kind].includes(key)
      ? [key, ...Object.keys(value as object).map((inner) => `${key}.${inner}`)]
      : [key],
  );

class Agreement {
  readonly seen = { 'cash-in': new Set<string>(), 'cash-out': new Set<string>() };
  readonly statuses = { 'cash-in': new Set<string>(), 'cash-out': new Set<string>() };
  /** The hot bytes of each transaction's latest check, to compare with the archive's. */
  readonly hot = new Map<string, { kind: Kind; text: string }>();

  constructor(private readonly api: Integrator) {}

  /** Renders the row both ways and checks both renderings and the schemas agree; returns the body. */
  async check(kind: Kind, transactionId: string, status?: string): Promise<Record<string, any>> {
    const { sql, ts } = await renderings(this.api, kind, transactionId);
    expect(sql, `${kind} ${transactionId}: SQL and TypeScript views`).toBe(ts);
    const body = JSON.parse(ts) as Record<string, any>;
    if (status) expect(body.status).toBe(status);
    expect(JSON.parse(sql as string)).toEqual(body);
    // valibot accepts the body and strips nothing: no field the schema lacks, at any depth.
    const parsed = v.safeParse(KINDS[kind].schema as v.GenericSchema, body);
    expect(parsed.issues, `${kind} ${body.status} against the valibot schema`).toBeUndefined();
    expect(parsed.output).toEqual(body);
    // The served document, its objects closed to undocumented fields.
    const doc = await servedDocument();
    const ref = { $ref: `#/components/schemas/${kind === 'cash-in' ? 'CashIn' : 'CashOut'}` };
    expect(validate(doc, ref, body), `${kind} ${body.status} against the OpenAPI document`).toEqual([]);
    for (const path of bodyPaths(kind, body)) this.seen[kind].add(path);
    this.statuses[kind].add(body.status);
    this.hot.set(transactionId, { kind, text: sql as string });
    return body;
  }
}

describe('one view per transaction kind', () => {
  it('SQL and TypeScript renderings and both schemas agree on every status, hot and archived', async () => {
    const api = await Integrator.create({ partners: [GAMA] });
    const agree = new Agreement(api);
    const client = api.client.clientId;

    // Cash-In: awaiting, paid, expired, cancelled.
    const awaiting = await createCashIn(api, { amount: 11.5 });
    await agree.check('cash-in', awaiting.transactionId, 'AWAITING_PAYMENT');
    const paid = await createCashIn(api, { amount: 12 });
    await payCashIn(api, paid.internalCode);
    await agree.check('cash-in', paid.transactionId, 'PAID');
    const expired = await createCashIn(api, { amount: 13 });
    expect((await api.post(`/sandbox/cash-in/${expired.internalCode}/expire`, {})).status).toBe(200);
    await agree.check('cash-in', expired.transactionId, 'EXPIRED');
    const cancelled = await createCashIn(api, { amount: 14 });
    expect((await api.post(`/cash-in/${cancelled.internalCode}/cancel`, {})).status).toBe(200);
    await agree.check('cash-in', cancelled.transactionId, 'CANCELLED');

    // Refunded by the client, returned by the bank (MED), and a refund the network failed.
    const refunded = await createCashIn(api, { amount: 15 });
    await payCashIn(api, refunded.internalCode);
    const refund = await api.signedPost(`/cash-in/${refunded.internalCode}/refund`, { reason: 'FRAUD' });
    expect(refund.status).toBe(202);
    await agree.check('cash-in', refunded.transactionId); // PROCESSING refund: still PAID
    await waitFor(
      () => agree.check('cash-in', refunded.transactionId),
      (c) => c.status === 'REFUNDED',
    );
    await agree.check('cash-in', refunded.transactionId, 'REFUNDED');
    const returned = await createCashIn(api, { amount: 16 });
    await payCashIn(api, returned.internalCode);
    const medReturn = await api.post(`/sandbox/cash-in/${returned.internalCode}/return`, { reason: 'OTHER' });
    expect(medReturn.status).toBe(200);
    const medBody = await agree.check('cash-in', returned.transactionId, 'REFUNDED');
    expect(medBody).toEqual(await medReturn.json()); // the write response is the same view
    // A dispute, defended and closed: every dispute field, on a PAID Cash-In.
    const disputed = await createCashIn(api, { amount: 18 });
    await payCashIn(api, disputed.internalCode);
    expect((await api.post(`/sandbox/cash-in/${disputed.internalCode}/dispute`, {})).status).toBe(201);
    await agree.check('cash-in', disputed.transactionId, 'PAID');
    const defended = await api.signedPost(`/cash-in/${disputed.internalCode}/dispute/defense`, {
      text: 'Mine',
    });
    expect(defended.status).toBe(202);
    const closed = await api.post(`/sandbox/cash-in/${disputed.internalCode}/dispute/close`, {
      outcome: 'REJECTED',
    });
    expect(await agree.check('cash-in', disputed.transactionId, 'PAID')).toEqual(await closed.json());
    // A Pix Automático cycle's charge: its recurrence after a failed attempt, paid, then refunded.
    const rec = (await (
      await api.post('/recurrences', recurrenceBody({ startDate: addDays(brtDate(Date.now()), 5) }))
    ).json()) as RecurrenceBody;
    expect((await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {})).status).toBe(200);
    const recurring = (await (
      await api.post(`/recurrences/${rec.recurrenceId}/charges`, {
        amount: 29.9,
        dueDate: rec.startDate,
        externalReference: `cobr-${crypto.randomUUID()}`,
      })
    ).json()) as { transactionId: string; internalCode: string };
    const attempt = await api.post(`/sandbox/cash-in/${recurring.transactionId}/fail-attempt`, {});
    const recurringBody = await agree.check('cash-in', recurring.transactionId, 'AWAITING_PAYMENT');
    expect(recurringBody).toEqual(await attempt.json());
    expect(recurringBody.recurrence).toEqual({
      recurrenceId: rec.recurrenceId,
      cycle: 0,
      dueDate: rec.startDate,
      failedAttempts: 1,
      attemptsLeft: 4,
    });
    await payCashIn(api, recurring.internalCode);
    await agree.check('cash-in', recurring.transactionId, 'PAID');
    expect(
      (await api.signedPost(`/cash-in/${recurring.internalCode}/refund`, { reason: 'CUSTOMER_REQUEST' }))
        .status,
    ).toBe(202);
    await waitFor(
      () => agree.check('cash-in', recurring.transactionId),
      (c) => c.status === 'REFUNDED',
    );
    const failedRefund = await createCashIn(api, { amount: 17 });
    await payCashIn(api, failedRefund.internalCode);
    await waitFor(
      () => agree.check('cash-in', failedRefund.transactionId),
      (c) => c.endToEndId !== undefined,
    );
    const fault = await admin(`/admin/partners/${GAMA}/faults`, 'POST', {
      operation: 'CASH_IN',
      failureRate: 1,
      minutes: 1,
    });
    expect(fault.status).toBe(201);
    const doomed = await api.signedPost(`/cash-in/${failedRefund.internalCode}/refund`, {
      reason: 'CUSTOMER_REQUEST',
    });
    expect(doomed.status).toBe(202);
    const afterFailure = await waitFor(
      () => agree.check('cash-in', failedRefund.transactionId),
      (c) => c.refundFailure !== undefined,
    );
    expect(afterFailure.status).toBe('PAID');
    expect((await admin(`/admin/partners/${GAMA}/faults`, 'DELETE')).status).toBe(204);

    // Cash-Out: processing, completed (PIX key and bank account), cancelled by the network and by
    // the operator, pending approval, and returned.
    await deposit(api, 1000);
    const threshold = await admin(`/admin/clients/${client}`, 'PATCH', { approvalThreshold: 100 });
    expect(threshold.ok).toBe(true);
    // The partner answers the first one slowly (under the call's timeout), so it is seen PROCESSING
    // however busy the machine is.
    const slow = await admin(`/admin/partners/${GAMA}/faults`, 'POST', {
      operation: 'CASH_OUT',
      failureRate: 0,
      latencyMs: 2_000,
      minutes: 1,
    });
    expect(slow.status).toBe(201);
    const toKey = await createCashOut(api, { amount: 21 });
    await agree.check('cash-out', toKey.transactionId, 'PROCESSING');
    expect((await admin(`/admin/partners/${GAMA}/faults`, 'DELETE')).status).toBe(204);
    const toAccount = await createCashOut(api, {
      amount: 22,
      payee: {
        name: 'Carlos Pereira',
        document: '11222333000181',
        destination: {
          type: 'BANK_ACCOUNT',
          bankAccount: { ispb: '60746948', branch: '1234', account: '56789-0' },
        },
      },
    });
    const failed = await createCashOut(api, {
      amount: 23,
      payee: { name: 'Ana', document: '12345678909', destination: magicKey('PIX_KEY_NOT_FOUND') },
    });
    const pending = await createCashOut(api, { amount: 150 });
    const rejected = await createCashOut(api, { amount: 160 });
    for (const id of [toKey, toAccount].map((c) => c.transactionId)) {
      expect((await settled(api, id, undefined)).status).toBe('COMPLETED');
      await agree.check('cash-out', id, 'COMPLETED');
    }
    expect((await settled(api, failed.transactionId)).status).toBe('CANCELLED');
    await agree.check('cash-out', failed.transactionId, 'CANCELLED');
    await settled(api, pending.transactionId, ['PENDING']);
    await agree.check('cash-out', pending.transactionId, 'PENDING');
    await settled(api, rejected.transactionId, ['PENDING']);
    const reject = await admin(`/admin/clients/${client}/cash-out/${rejected.internalCode}/reject`, 'POST');
    expect(reject.status).toBe(200);
    const rejectedBody = await agree.check('cash-out', rejected.transactionId, 'CANCELLED');
    expect(rejectedBody).toEqual(await reject.json());
    const back = await api.post(`/sandbox/cash-out/${toKey.transactionId}/return`, { reason: 'FRAUD' });
    expect(back.status).toBe(200);
    const backBody = await agree.check('cash-out', toKey.transactionId, 'REFUNDED');
    expect(backBody).toEqual(await back.json());

    // Every status, and every field of each table, came out of a real row.
    expect([...agree.statuses['cash-in']].sort()).toEqual([
      'AWAITING_PAYMENT',
      'CANCELLED',
      'EXPIRED',
      'PAID',
      'REFUNDED',
    ]);
    expect([...agree.statuses['cash-out']].sort()).toEqual([
      'CANCELLED',
      'COMPLETED',
      'PENDING',
      'PROCESSING',
      'REFUNDED',
    ]);
    for (const kind of ['cash-in', 'cash-out'] as const) {
      expect([...agree.seen[kind]].sort(), `${kind} fields shown by real rows`).toEqual(
        tablePaths(KINDS[kind].fields).sort(),
      );
    }

    // GET by id and list pages: the hot rows' bytes, then the same bytes once archived.
    const get = async (kind: Kind, id: string) => {
      const res = await api.get(`/${kind}/${id}`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const list = async (kind: Kind) => (await api.get(`/${kind}?${PERIOD}`)).text();
    for (const [id, { kind, text }] of agree.hot) expect(await get(kind, id)).toBe(text);
    const lists = { 'cash-in': await list('cash-in'), 'cash-out': await list('cash-out') };
    const archive = await admin(`/admin/clients/${client}/archive`, 'POST', {
      before: new Date(Date.now() + 1).toISOString(),
    });
    expect(archive.status).toBe(200);
    const hotIds = new Set(
      [...(await hotCashIns(client)), ...(await hotCashOuts(client))].map((r) => r.transactionId),
    );
    const archived = [...agree.hot.keys()].filter((id) => !hotIds.has(id));
    for (const id of [refunded, returned, cancelled, expired, recurring].map((c) => c.transactionId))
      expect(archived).toContain(id);
    for (const id of [toKey, toAccount, failed, rejected].map((c) => c.transactionId))
      expect(archived).toContain(id);
    for (const [id, { kind, text }] of agree.hot) expect(await get(kind, id)).toBe(text);
    expect(await list('cash-in')).toBe(lists['cash-in']);
    expect(await list('cash-out')).toBe(lists['cash-out']);
  });
});
