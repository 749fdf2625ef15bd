import { describe, expect, it } from 'vitest';
import type { CashOutPageBody } from '../../../src/api/cash-out/list-cash-outs';
import type { CashOutBody } from '../../../src/api/cash-out/shared';
import type { CashOutSummaryBody } from '../../../src/api/cash-out/summarize-cash-outs';
import { FAILURE_CODES, FAILURE_MESSAGES } from '../../../src/domain/failure-codes';
import { problemCode } from '../../support/cash-in';
import { cashOutBody, createCashOut, deposit, getCashOut, magicKey, settled } from '../../support/cash-out';
import { admin, Integrator } from '../../support/harness';
import { holds as holdRows, ledgerEntries, partnerTransfers } from '../../support/ledger-reads';
import { newSink, outboxEvents, sinkEvents } from '../../support/webhooks';

const E2E = /^E\d{8}\d{12}[A-Za-z0-9]{11}$/;
const D2E = /^D\d{8}\d{12}[A-Za-z0-9]{11}$/;

/** Event types of one Cash-Out, whether their payloads are still held or not. */
async function webhookTypes(clientId: string, transactionId: string) {
  return (await outboxEvents(clientId, transactionId)).map((e) => e.eventType);
}

const ledger = async (clientId: string) =>
  (await ledgerEntries(clientId)).map(({ type, amount, balanceAfter }) => ({ type, amount, balanceAfter }));
const holds = holdRows;

describe('POST /cash-out acceptance (spec §4.9)', () => {
  it('answers 202 with exactly transactionId, internalCode, externalReference, status, requestedAt', async () => {
    const api = await Integrator.create();
    const res = await api.signedPost('/cash-out', cashOutBody());
    expect(res.status).toBe(202);
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual([
      'externalReference',
      'internalCode',
      'requestedAt',
      'status',
      'transactionId',
    ]);
    expect(body.status).toBe('PROCESSING');
    expect(body.transactionId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(body.requestedAt).toMatch(/-03:00$/);
  });

  it('never answers insufficient balance as an HTTP error: 202 then CANCELLED INSUFFICIENT_FUNDS without settlement', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const accepted = await createCashOut(api, { amount: 50, webhookUrl: sink.url });
    const done = await settled(api, accepted.transactionId);
    expect(done.status).toBe('CANCELLED');
    expect(done.failure).toEqual({
      code: 'INSUFFICIENT_FUNDS',
      message: FAILURE_MESSAGES.INSUFFICIENT_FUNDS,
    });
    expect(done.cancelledAt).toMatch(/-03:00$/);
    expect(done).not.toHaveProperty('settlement');
    expect(done).not.toHaveProperty('endToEndId');
    const events = await sinkEvents(sink, 2);
    expect(events.map((e) => e.type)).toEqual(['CASHOUT_REQUESTED', 'CASHOUT_FAILED']);
    expect(events[0]!.data.status).toBe('PROCESSING');
    expect(events[1]!.data).toEqual(done);
  });

  it('keeps externalReference unique even after cancellation, and checks body before signature', async () => {
    const api = await Integrator.create();
    const first = await createCashOut(api, { amount: 1 });
    await settled(api, first.transactionId);
    const again = await api.signedPost(
      '/cash-out',
      cashOutBody({ externalReference: first.externalReference }),
    );
    expect(again.status).toBe(409);
    expect(await problemCode(again)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    const badBody = await api.post('/cash-out', { amount: 1 });
    expect(badBody.status).toBe(400);
    const unsigned = await api.post('/cash-out', cashOutBody());
    expect(await problemCode(unsigned)).toBe('DIGITAL_SIGNATURE_REQUIRED');
  });

  it('validates the payee: document, destination type, each PIX key type, bank account fields, description', async () => {
    const api = await Integrator.create();
    const pix = (pixKeyType: string, pixKey: string) => ({
      name: 'A',
      document: '12345678909',
      destination: { type: 'PIX', pixKeyType, pixKey },
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ payee: { ...pix('EVP', crypto.randomUUID()), document: '123' } }, 'payee.document'],
      [
        { payee: { name: 'A', document: '12345678909', destination: { type: 'TED' } } },
        'payee.destination.type',
      ],
      [{ payee: pix('CPF', '1234567890') }, 'payee.destination.pixKey'],
      [{ payee: pix('CNPJ', '12345678909') }, 'payee.destination.pixKey'],
      [{ payee: pix('EMAIL', 'not-an-email') }, 'payee.destination.pixKey'],
      [{ payee: pix('PHONE', '11987654321') }, 'payee.destination.pixKey'],
      [{ payee: pix('EVP', 'not-a-uuid') }, 'payee.destination.pixKey'],
      [{ payee: pix('RANDOM', 'x') }, 'payee.destination.pixKeyType'],
      [
        { payee: { name: 'A', document: '12345678909', destination: { type: 'BANK_ACCOUNT' } } },
        'payee.destination.bankAccount',
      ],
      [
        {
          payee: {
            name: 'A',
            document: '12345678909',
            destination: {
              type: 'BANK_ACCOUNT',
              bankAccount: { ispb: '123', branch: '0001', account: '1234-5' },
            },
          },
        },
        'payee.destination.bankAccount.ispb',
      ],
      [
        {
          payee: {
            name: 'A',
            document: '12345678909',
            destination: {
              type: 'BANK_ACCOUNT',
              bankAccount: { ispb: '60701190', branch: '00011', account: '1234-5' },
            },
          },
        },
        'payee.destination.bankAccount.branch',
      ],
      [
        {
          payee: {
            name: 'A',
            document: '12345678909',
            destination: {
              type: 'BANK_ACCOUNT',
              bankAccount: { ispb: '60701190', branch: '1', account: '1234-5', accountType: 'XX' },
            },
          },
        },
        'payee.destination.bankAccount.accountType',
      ],
      [{ description: 'x'.repeat(141) }, 'description'],
      [{ externalReference: 'x'.repeat(51) }, 'externalReference'],
      [{ amount: 0.001 }, 'amount'],
    ];
    for (const [patch, field] of cases) {
      const res = await api.signedPost('/cash-out', cashOutBody(patch));
      expect(res.status, field).toBe(400);
      const body = (await res.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(body.errors), JSON.stringify(patch)).toContain(field);
    }
    for (const destination of [
      { type: 'PIX', pixKeyType: 'PHONE', pixKey: '+5511987654321' },
      { type: 'PIX', pixKeyType: 'CNPJ', pixKey: '12345678000195' },
      {
        type: 'BANK_ACCOUNT',
        bankAccount: { ispb: '60701190', branch: '1234', account: '12345-6', accountType: 'SVGS' },
      },
    ]) {
      expect(
        (
          await api.signedPost(
            '/cash-out',
            cashOutBody({ payee: { name: 'A', document: '12345678909', destination } }),
          )
        ).status,
      ).toBe(202);
    }
  });
});

describe('Cash-Out execution outcomes (spec §3.2)', () => {
  it('COMPLETED: completedAt, E… endToEndId, settlement, payee.bankData, PIX_OUT debit, reservation consumed', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const sink = newSink();
    const accepted = await createCashOut(api, { amount: 30.5, webhookUrl: sink.url });
    const processing = await getCashOut(api, accepted.transactionId);
    expect(['PROCESSING']).toContain(processing.status);
    expect(processing).not.toHaveProperty('settlement');
    const done = await settled(api, accepted.transactionId);
    expect(done.status).toBe('COMPLETED');
    expect(done.endToEndId).toMatch(E2E);
    expect(done.completedAt).toMatch(/-03:00$/);
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    expect(done.settlement).toEqual({
      ispb: transactional.bank.ispb,
      bank: transactional.bank.name,
      branch: transactional.branch,
      account: transactional.number,
    });
    expect(done.payee.bankData).toMatchObject({
      ispb: expect.stringMatching(/^\d{8}$/),
      bank: expect.any(String),
    });
    expect(done).not.toHaveProperty('failure');
    for (const id of [accepted.internalCode, accepted.externalReference, done.endToEndId])
      expect(await getCashOut(api, id!)).toEqual(done);
    expect(await ledger(api.client.clientId)).toEqual([
      { type: 'TRANSFER_IN', amount: 10000, balanceAfter: 10000 },
      { type: 'PIX_OUT', amount: 3050, balanceAfter: 6950 },
    ]);
    expect(await holds(api.client.clientId)).toEqual([]);
    const events = await sinkEvents(sink, 2);
    expect(events.map((e) => e.type)).toEqual(['CASHOUT_REQUESTED', 'CASHOUT_COMPLETED']);
    expect(events[1]!.data).toEqual(done);
  });

  it('CANCELLED with every failure code reachable through the sandbox magic keys, bank assigned, nothing debited', async () => {
    const api = await Integrator.create();
    await deposit(api, 1000);
    const codes = FAILURE_CODES.filter((c) => !['INSUFFICIENT_FUNDS'].includes(c));
    const accepted = await Promise.all(
      codes.map((code, i) =>
        createCashOut(api, {
          amount: (100 + i) / 100,
          payee: { name: 'A', document: '12345678909', destination: magicKey(code) },
        }),
      ),
    );
    for (const [i, a] of accepted.entries()) {
      const done = await settled(api, a.transactionId);
      expect(done.status).toBe('CANCELLED');
      expect(done.failure).toEqual({ code: codes[i], message: FAILURE_MESSAGES[codes[i]!] });
      expect(done.settlement).toBeDefined();
      expect(done).not.toHaveProperty('endToEndId');
    }
    expect((await ledger(api.client.clientId)).map((e) => e.type)).toEqual(['TRANSFER_IN']);
    expect(await holds(api.client.clientId)).toEqual([]);
  });

  it('REFUNDED by a return: reason, refundedAt, completedAt kept, D… with originalEndToEndId, PIX_REFUND_IN', async () => {
    const api = await Integrator.create();
    await deposit(api, 20);
    const accepted = await createCashOut(api, { amount: 20 });
    const completed = await settled(api, accepted.transactionId);
    const res = await api.post(`/sandbox/cash-out/${accepted.transactionId}/return`, {
      reason: 'PAYEE_REQUESTED',
    });
    expect(res.status).toBe(200);
    const refunded = (await res.json()) as CashOutBody;
    expect(refunded.status).toBe('REFUNDED');
    expect(refunded.reason).toBe('PAYEE_REQUESTED');
    expect(refunded.endToEndId).toMatch(D2E);
    expect(refunded.originalEndToEndId).toBe(completed.endToEndId);
    expect(refunded.completedAt).toBe(completed.completedAt);
    expect(refunded.refundedAt).toMatch(/-03:00$/);
    expect(refunded.settlement).toEqual(completed.settlement);
    expect(await getCashOut(api, refunded.endToEndId!)).toEqual(refunded);
    expect((await ledger(api.client.clientId)).map((e) => [e.type, e.balanceAfter])).toEqual([
      ['TRANSFER_IN', 2000],
      ['PIX_OUT', 0],
      ['PIX_REFUND_IN', 2000],
    ]);
    const again = await api.post(`/sandbox/cash-out/${accepted.transactionId}/return`, { reason: 'FRAUD' });
    expect(again.status).toBe(422);
    expect(await webhookTypes(api.client.clientId, accepted.transactionId)).toEqual([
      'CASHOUT_REQUESTED',
      'CASHOUT_COMPLETED',
      'CASHOUT_REFUNDED',
    ]);
  });
});

describe('withdrawal limits, duplicates and approval (decisions §3–§4)', () => {
  it('enforces each configured limit after the 202', async () => {
    const api = await Integrator.create();
    await deposit(api, 10_000);
    await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', {
      limits: { perTransaction: 500, daily: 800, monthly: 900, perPayeeDaily: 300 },
    });
    const payee = {
      name: 'P',
      document: '12345678909',
      destination: { type: 'PIX', pixKeyType: 'CPF', pixKey: '12345678909' },
    };
    const above = await createCashOut(api, { amount: 500.01 });
    expect((await settled(api, above.transactionId)).failure!.code).toBe('AMOUNT_ABOVE_MAXIMUM');
    const p1 = await createCashOut(api, { amount: 200, payee });
    const p1Done = await settled(api, p1.transactionId);
    expect(p1Done.status, JSON.stringify(p1Done.failure)).toBe('COMPLETED');
    const p2 = await createCashOut(api, { amount: 100.01, payee });
    expect((await settled(api, p2.transactionId)).failure!.code).toBe('PAYEE_LIMIT_EXCEEDED');
    for (const amount of [300, 300]) {
      const ok = await settled(api, (await createCashOut(api, { amount })).transactionId);
      expect(ok.status, JSON.stringify(ok.failure)).toBe('COMPLETED');
    }
    const daily = await createCashOut(api, { amount: 0.01 });
    expect((await settled(api, daily.transactionId)).failure!.code).toBe('DAILY_LIMIT_EXCEEDED');
    await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { limits: { daily: null, monthly: 850 } });
    const monthly = await createCashOut(api, { amount: 60 });
    expect((await settled(api, monthly.transactionId)).failure!.code).toBe('PERIOD_LIMIT_EXCEEDED');
    const fits = await createCashOut(api, { amount: 50 });
    expect((await settled(api, fits.transactionId)).status).toBe('COMPLETED');
  });

  it('cancels an identical transfer to the same payee within seconds as DUPLICATED_TRANSFER', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const payee = {
      name: 'P',
      document: '12345678909',
      destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
    };
    const first = await createCashOut(api, { amount: 9.99, payee });
    const twin = await createCashOut(api, { amount: 9.99, payee });
    expect((await settled(api, first.transactionId)).status).toBe('COMPLETED');
    expect((await settled(api, twin.transactionId)).failure!.code).toBe('DUPLICATED_TRANSFER');
  });

  it('holds amounts at or above the approval threshold in PENDING; approve completes, reject cancels', async () => {
    const api = await Integrator.create();
    await deposit(api, 1000);
    await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { approvalThreshold: 100 });
    const big = await createCashOut(api, { amount: 100 });
    const pending = await settled(api, big.transactionId, ['PENDING']);
    expect(pending.status).toBe('PENDING');
    expect(pending).not.toHaveProperty('settlement');
    const approved = await admin(
      `/admin/clients/${api.client.clientId}/cash-out/${big.transactionId}/approve`,
      'POST',
    );
    expect(approved.status).toBe(200);
    expect((await settled(api, big.transactionId)).status).toBe('COMPLETED');

    const other = await createCashOut(api, { amount: 150 });
    await settled(api, other.transactionId, ['PENDING']);
    const rejected = await admin(
      `/admin/clients/${api.client.clientId}/cash-out/${other.internalCode}/reject`,
      'POST',
    );
    expect(rejected.status).toBe(200);
    const body = (await rejected.json()) as CashOutBody;
    expect(body.status).toBe('CANCELLED');
    expect(body.failure!.code).toBe('APPROVAL_REJECTED');
    expect(body.settlement).toBeDefined();
    expect(await holds(api.client.clientId)).toEqual([]);
    const small = await createCashOut(api, { amount: 99.99 });
    expect((await settled(api, small.transactionId)).status).toBe('COMPLETED');
    expect(
      (await admin(`/admin/clients/${api.client.clientId}/cash-out/${small.transactionId}/approve`, 'POST'))
        .status,
    ).toBe(422);
  });
});

describe('money safety', () => {
  it('50 concurrent Cash-Outs over a balance B complete at most B; the rest end INSUFFICIENT_FUNDS', async () => {
    const api = await Integrator.create();
    await deposit(api, 500);
    const amounts = Array.from({ length: 50 }, (_, i) => 15 + i / 100);
    const accepted = await Promise.all(
      amounts.map((amount) => api.signedPost('/cash-out', cashOutBody({ amount }))),
    );
    expect(accepted.every((r) => r.status === 202)).toBe(true);
    const ids = await Promise.all(
      accepted.map(async (r) => ((await r.json()) as { transactionId: string }).transactionId),
    );
    const outcomes = [];
    for (const id of ids) outcomes.push(await settled(api, id, undefined));
    const completed = outcomes.filter((o) => o.status === 'COMPLETED');
    const total = completed.reduce((sum, o) => sum + Math.round(o.amount * 100), 0);
    expect(total).toBeLessThanOrEqual(50_000);
    expect(completed.length).toBeGreaterThan(0);
    for (const o of outcomes.filter((x) => x.status !== 'COMPLETED'))
      expect(o.failure!.code).toBe('INSUFFICIENT_FUNDS');
    const entries = await ledger(api.client.clientId);
    expect(entries.filter((e) => e.type === 'PIX_OUT')).toHaveLength(completed.length);
    expect(entries.at(-1)!.balanceAfter).toBe(50_000 - total);
    expect(await holds(api.client.clientId)).toEqual([]);
  });

  it('a partner fault fails Cash-Outs with the injected code; clearing it restores settlement', async () => {
    const api = await Integrator.create({ partners: ['56431109'] });
    await deposit(api, 100);
    const fault = await admin('/admin/partners/56431109/faults', 'POST', {
      operation: 'CASH_OUT',
      failureRate: 1,
      failureCode: 'PAYEE_BANK_UNAVAILABLE',
      minutes: 1,
    });
    expect(fault.status).toBe(201);
    const failed = await createCashOut(api, { amount: 5 });
    expect((await settled(api, failed.transactionId)).failure!.code).toBe('PAYEE_BANK_UNAVAILABLE');
    expect((await admin('/admin/partners/56431109/faults', 'DELETE')).status).toBe(204);
    const ok = await createCashOut(api, { amount: 6 });
    expect((await settled(api, ok.transactionId)).status).toBe('COMPLETED');
    const sent = await partnerTransfers([failed.transactionId, ok.transactionId]);
    expect(sent.length).toBe(2);
  });
});

describe('GET /cash-out list and summary (spec §4.11, §4.8)', () => {
  it('lists with cursors and summarizes by lowercase status with settlement of completed only', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const ok = await createCashOut(api, { amount: 40 });
    const fail = await createCashOut(api, {
      amount: 2,
      payee: { name: 'A', document: '12345678909', destination: magicKey('PIX_KEY_NOT_FOUND') },
    });
    const poor = await createCashOut(api, { amount: 1000 });
    for (const c of [ok, fail, poor]) await settled(api, c.transactionId);
    const list = (await (
      await api.get('/cash-out?from=2020-01-01&to=2100-01-01&limit=2')
    ).json()) as CashOutPageBody;
    expect(list.items.map((i: any) => i.transactionId)).toEqual([ok.transactionId, fail.transactionId]);
    expect(list.nextCursor).toBeDefined();
    expect(list.previousCursor).toBeUndefined();
    const next = (await (
      await api.get(
        `/cash-out?from=2020-01-01&to=2100-01-01&limit=2&cursor=${encodeURIComponent(list.nextCursor!)}`,
      )
    ).json()) as CashOutPageBody;
    expect(next.items.map((i: any) => i.transactionId)).toEqual([poor.transactionId]);
    expect(next.nextCursor).toBeUndefined();
    const summary = (await (
      await api.get('/cash-out/summary?from=2020-01-01&to=2100-01-01')
    ).json()) as CashOutSummaryBody;
    expect(summary.totals).toEqual({
      completed: { count: 1, amount: 40 },
      cancelled: { count: 2, amount: 1002 },
    });
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    expect(summary.settlement).toEqual([
      { ispb: transactional.bank.ispb, bank: transactional.bank.name, count: 1, amount: 40 },
    ]);
    const foreign = await (await Integrator.create()).get(`/cash-out/${ok.transactionId}`);
    expect(foreign.status).toBe(404);
    expect(await problemCode(foreign)).toBe('CASHOUT_NOT_FOUND');
  });
});
