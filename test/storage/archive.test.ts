/**
 * Closed Cash-Ins move to R2 (issue 16 item 2, durable-objects/ledger/archive/archive.ts): POST
 * /admin/clients/{id}/archive, GET by every id kind answers byte for byte as before, a crash between
 * the segment put and the row deletion loses and doubles nothing, archived Cash-Ins can be refunded
 * and bank-returned (rehydrated), and an archived externalReference stays taken.
 */

import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { CashInCreatedBody } from '../../src/api/cash-in/create-cash-in';
import { registryPairs } from '../support/archive-registry';
import { createCashIn, payCashIn, problemCode } from '../support/cash-in';
import { armCrash, crashedAt } from '../support/crash';
import { admin, cashInBody, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';
import { archiveSegments, archiveSizesOf, cashIns, ledgerEntries, tasks } from '../support/ledger-reads';
import {
  addTask,
  ageCashIns,
  ageEntries,
  dropTasks,
  setOnlyCashInTxId,
  setTasksDue,
  wakeIn,
} from '../support/ledger-writes';

const DAY = 86_400_000;
const sweep = (clientId: string) => (ledgerStub(clientId) as unknown as { sweep(): Promise<void> }).sweep();

type CashIn = CashInCreatedBody;

async function closedCashIns(api: Integrator): Promise<{ all: CashIn[]; open: CashIn }> {
  const all: CashIn[] = [];
  for (let i = 0; i < 3; i++) {
    const c = await createCashIn(api);
    await payCashIn(api, c.internalCode as string);
    all.push(c as CashIn);
  }
  const cancelled = (await createCashIn(api)) as CashIn;
  expect((await api.post(`/cash-in/${cancelled.transactionId}/cancel`, {})).status).toBe(200);
  all.push(cancelled);
  const open = (await createCashIn(api)) as CashIn;
  return { all, open };
}

/** Every id kind of each Cash-In and the exact bytes its GET answers. */
async function lookups(api: Integrator, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of ids) {
    const res = await api.get(`/cash-in/${encodeURIComponent(id)}`);
    out.set(id, `${res.status} ${await res.text()}`);
  }
  return out;
}

async function lookupsAt(api: Integrator, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const path of paths) {
    const res = await api.get(path);
    out.set(path, `${res.status} ${await res.text()}`);
  }
  return out;
}

async function idsOf(api: Integrator, cashIns: CashIn[]): Promise<string[]> {
  const ids: string[] = [];
  for (const c of cashIns) {
    const view = (await (await api.get(`/cash-in/${c.transactionId}`)).json()) as Record<string, unknown>;
    for (const key of ['internalCode', 'transactionId', 'externalReference', 'endToEndId'])
      if (typeof view[key] === 'string') ids.push(view[key] as string);
  }
  return ids;
}

const archive = (api: Integrator, before: string) =>
  admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', { before });

const hotCount = async (api: Integrator) => (await cashIns(api.client.clientId)).length;

describe('POST /admin/clients/{id}/archive', () => {
  it('moves closed Cash-Ins to R2 and every GET by id answers the same bytes', async () => {
    const api = await Integrator.create();
    const { all, open } = await closedCashIns(api);
    const ids = await idsOf(api, [...all, open]);
    const before = await lookups(api, ids);
    const account = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!.number;
    const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10); // BRT date
    const ledgerReads = [
      `/account/balance?at=${encodeURIComponent(new Date().toISOString())}`,
      `/account/${account}/statement?from=${today}&to=${today}`,
      `/account/${account}/statement?from=${today}&to=${today}&limit=2`,
    ];
    const ledgerBefore = await lookupsAt(api, ledgerReads);
    for (const answer of ledgerBefore.values()) expect(answer).toMatch(/^200 /);
    const res = await archive(api, new Date(Date.now() + 1).toISOString());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ archivedTransactions: 4 });
    expect(await hotCount(api)).toBe(1);
    expect(await lookups(api, ids)).toEqual(before);
    // Ledger entries are archived too: statement and balances (now and `at`) answer the same bytes.
    expect(await lookupsAt(api, ledgerReads)).toEqual(ledgerBefore);
    const listed = await env.ARCHIVE.list({ prefix: `${api.client.clientId}/cash-in/` });
    expect(listed.objects).toHaveLength(1);
    // Index: one 47-bit hash per distinct id, nothing else per transaction. A TxId carrying a counter
    // code is registered under itself (only a random-form code's TxId goes through its code's entry,
    // archive-index.ts registeredUnderCode). The pairs are in the client's archive registry; its object keeps none.
    const index = [{ n: (await archiveSizesOf(api.client.clientId)).indexEntries }];
    expect(all.every((c) => c.transactionId.slice(22, 29) === c.internalCode)).toBe(true);
    expect(await registryPairs(api.client.clientId)).toBe(ids.length - 3); // the open one is not archived
    expect(index[0]!.n).toBe(0);
    // Idempotent; an archived externalReference stays taken.
    expect(await (await archive(api, new Date().toISOString())).json()).toEqual({ archivedTransactions: 0 });
    const again = await api.post('/cash-in', cashInBody({ externalReference: all[0]!.externalReference }));
    expect(again.status).toBe(409);
    expect(await problemCode(again)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
  });

  it('finds an archived Cash-In whose TxId carries no internalCode (an older version issued 13 random characters)', async () => {
    const api = await Integrator.create();
    const c = await createCashIn(api);
    await payCashIn(api, c.internalCode as string);
    const legacy = `${c.transactionId.slice(0, 22)}abcdefghijklm`;
    await setOnlyCashInTxId(api.client.clientId, legacy);
    const before = await lookups(api, [legacy, c.internalCode as string]);
    expect([...before.values()].map((a) => a.slice(0, 3))).toEqual(['200', '200']);
    await archive(api, new Date(Date.now() + 1).toISOString());
    expect(await hotCount(api)).toBe(0);
    expect(await lookups(api, [legacy, c.internalCode as string])).toEqual(before);
    // Its TxId has an index entry of its own: 4 ids, 4 entries (in the registry).
    expect(await registryPairs(api.client.clientId)).toBe(4);
  });

  it('two archive calls at once move each Cash-In once', async () => {
    const api = await Integrator.create();
    const { all } = await closedCashIns(api);
    const cutoff = new Date(Date.now() + 1).toISOString();
    const answers = await Promise.all([archive(api, cutoff), archive(api, cutoff)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const moved = await Promise.all(
      answers.map(async (r) => ((await r.json()) as { archivedTransactions: number }).archivedTransactions),
    );
    expect(moved[0]! + moved[1]!).toBe(all.length);
    expect((await env.ARCHIVE.list({ prefix: `${api.client.clientId}/cash-in/` })).objects).toHaveLength(1);
  });

  it('a refused change of an archived Cash-In answers as before archiving (cancel, pay)', async () => {
    const api = await Integrator.create();
    const { all } = await closedCashIns(api);
    const tries = async () => [
      await api.post(`/cash-in/${all[0]!.transactionId}/cancel`, {}),
      await api.post(`/sandbox/cash-in/${all[3]!.internalCode}/pay`, {}),
    ];
    const answer = async (rs: Response[]) =>
      Promise.all(rs.map(async (r) => `${r.status} ${await r.text()}`));
    const before = await answer(await tries());
    expect(before.map((a) => a.slice(0, 3))).not.toContain('200');
    await archive(api, new Date(Date.now() + 1).toISOString());
    expect(await answer(await tries())).toEqual(before);
  });

  it('answers RFC 7807 for a bad body and an unknown client', async () => {
    const api = await Integrator.create();
    const bad = await archive(api, 'yesterday');
    expect(bad.status).toBe(400);
    expect(await problemCode(bad)).toBe('VALIDATION_ERROR');
    const none = await admin('/admin/clients/00000000-0000-4000-8000-000000000000/archive', 'POST', {
      before: new Date().toISOString(),
    });
    expect(none.status).toBe(404);
    expect(await problemCode(none)).toBe('CLIENT_NOT_FOUND');
  });

  it('a crash after the segment put and before the deletion loses and doubles nothing', async () => {
    const api = await Integrator.create();
    const { all, open } = await closedCashIns(api);
    const ids = await idsOf(api, [...all, open]);
    const before = await lookups(api, ids);
    await armCrash(api, 'archive.segment-written');
    const cutoff = new Date(Date.now() + 1).toISOString();
    const crashed = await archive(api, cutoff).catch(() => undefined);
    expect(crashed?.status ?? 500).toBe(500);
    expect(await crashedAt(api, 'archive.segment-written')).toBeDefined();
    // The segment is in R2 but reserved only: the rows are still hot and serve every read.
    const segments = await archiveSegments(api.client.clientId);
    expect(segments.map((s) => s.state)).toEqual(['WRITING']);
    expect(await hotCount(api)).toBe(5);
    expect(await lookups(api, ids)).toEqual(before);
    // The re-run rewrites the same key and finishes.
    expect(await (await archive(api, cutoff)).json()).toEqual({ archivedTransactions: 4 });
    const done = (await archiveSegments(api.client.clientId))
      .filter((s) => s.kind === 'cash-in')
      .map(({ state, key }) => ({ state, key }));
    expect(done).toEqual([{ state: 'DONE', key: segments[0]!.key }]);
    const listed = await env.ARCHIVE.list({ prefix: `${api.client.clientId}/cash-in/` });
    expect(listed.objects.map((o) => o.key)).toEqual([segments[0]!.key]);
    expect(await hotCount(api)).toBe(1);
    expect(await lookups(api, ids)).toEqual(before);
  });

  it('a reservation left by a crash is dropped if one of its rows changed since (a refund started)', async () => {
    const api = await Integrator.create();
    const { all } = await closedCashIns(api);
    await armCrash(api, 'archive.segment-written');
    const cutoff = new Date(Date.now() + 1).toISOString();
    expect((await archive(api, cutoff).catch(() => undefined))?.status ?? 500).toBe(500);
    const refund = await api.signedPost(`/cash-in/${all[0]!.transactionId}/refund`, { reason: 'FRAUD' });
    expect(refund.status).toBe(202);
    const refunding = [
      { n: (await cashIns(api.client.clientId)).filter((c) => c.refundState === 'PROCESSING').length },
    ];
    // The sandbox may settle the refund at once; the row must be hot while it is in flight.
    const moved = ((await (await archive(api, cutoff)).json()) as { archivedTransactions: number })
      .archivedTransactions;
    expect(moved).toBe(refunding[0]!.n === 1 ? 3 : 4);
    const left = await cashIns(api.client.clientId);
    expect(left.filter((r) => r.refundState === 'PROCESSING')).toHaveLength(refunding[0]!.n);
  });

  it('a closed Cash-In with work still scheduled (a charge removal retried) stays hot until it is done', async () => {
    const api = await Integrator.create();
    const { all } = await closedCashIns(api);
    const cancelled = all[3]!.transactionId as string;
    await addTask(api.client.clientId, 'remove-charge', cancelled, Date.now() + DAY);
    const cutoff = new Date(Date.now() + 1).toISOString();
    expect(await (await archive(api, cutoff)).json()).toEqual({ archivedTransactions: 3 });
    await dropTasks(api.client.clientId, { id: `remove-charge:${cancelled}` });
    expect(await (await archive(api, cutoff)).json()).toEqual({ archivedTransactions: 1 });
  });

  it('refunds and bank-returns archived Cash-Ins (they come back hot first)', async () => {
    const api = await Integrator.create();
    const { all } = await closedCashIns(api);
    const balance = async () => (await (await api.get('/account/balance')).json()) as Record<string, unknown>;
    const start = await balance();
    expect(await (await archive(api, new Date(Date.now() + 1).toISOString())).json()).toEqual({
      archivedTransactions: 4,
    });
    const refund = await api.signedPost(`/cash-in/${all[0]!.transactionId}/refund`, { reason: 'FRAUD' });
    expect(refund.status).toBe(202);
    const returned = await api.post(`/sandbox/cash-in/${all[1]!.internalCode}/return`, { reason: 'FRAUD' });
    expect(returned.status).toBe(200);
    expect(((await returned.json()) as CashIn).status).toBe('REFUNDED');
    expect(await hotCount(api)).toBe(3);
    const after = await balance();
    expect(after).not.toEqual(start);
  });
});

describe('archiving on schedule', () => {
  it('the alarm archives closed Cash-Ins once the retention window (35 days) is over', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const { all, open } = await closedCashIns(api);
    const ids = await idsOf(api, [...all, open]);
    const before = await lookups(api, ids);
    const task = async () => (await tasks(clientId)).find((t) => t.id === 'archive:all')?.dueAt;
    await sweep(clientId);
    const due = await task();
    const oldest = Math.min(...(await cashIns(clientId)).map((c) => c.requestedAt));
    expect(due).toBe(oldest + 35 * DAY);
    // 36 days on (every stored time moved back), the alarm's step takes the closed ones.
    await ageCashIns(clientId, 36 * DAY);
    await setTasksDue(clientId, { id: 'archive:all' }, Date.now() - 1);
    await wakeIn(clientId, -1);
    expect(await runDurableObjectAlarm(ledgerStub(clientId))).toBe(true);
    expect(await hotCount(api)).toBe(1);
    expect((await env.ARCHIVE.list({ prefix: `${clientId}/cash-in/` })).objects).toHaveLength(1);
    // Reads are the same apart from the times this test moved.
    const after = await lookups(api, [all[0]!.internalCode!]);
    expect(after.get(all[0]!.internalCode!)).toMatch(/^200 /);
    expect(before.size).toBe(ids.length);
    // Ledger entries as old go too, one step per alarm (the task comes back 1 s after a full step).
    await ageEntries(clientId, 36 * DAY);
    for (let i = 0; i < 4; i++) {
      await setTasksDue(clientId, { id: 'archive:all' }, Date.now() - 1);
      await wakeIn(clientId, -1);
      await runDurableObjectAlarm(ledgerStub(clientId));
    }
    expect(await ledgerEntries(clientId)).toEqual([]);
    expect((await env.ARCHIVE.list({ prefix: `${clientId}/ledger/` })).objects.length).toBeGreaterThan(0);
  });
});
