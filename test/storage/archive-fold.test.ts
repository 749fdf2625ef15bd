/**
 * The manifest of closed days leaves the object (durable-objects/ledger/archive/archive-fold.ts,
 * docs/storage-schema.md "Archive (R2)"): a closed day's archive_segments rows fold into one
 * archive_runs row per kind and day, their rows in an R2 body. Every read answers the same bytes
 * across the boundary of every generation (the object's first-generation index, registry + loose
 * rows, registry + runs, hot rows) with at most 3 reads of R2 or calls to other objects per GET;
 * references stay taken; a crash between the body's put and the object's transaction loses and
 * doubles nothing; a folded Cash-In is refunded (and archived again without overwriting its old
 * segment) or bank-returned; lists, statements and summaries read folded days one at a time; the
 * scheduled archive task folds once it has nothing to move.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { foldAll } from '../../durable-objects/ledger/archive/archive-fold';
import { forgetDecoded } from '../../durable-objects/ledger/archive/archive-reads';
import { everything, history, same } from '../support/archive-history';
import { allReads, brtDate, ledgerReads } from '../support/archive-reads';
import { clearRegistry, countReads, registryContents } from '../support/archive-registry';
import { createCashIn, payCashIn, problemCode, waitFor } from '../support/cash-in';
import { cashOutBody, createCashOut, getCashOut, settled } from '../support/cash-out';
import { armCrash, crashedAt } from '../support/crash';
import { admin, cashInBody, Integrator } from '../support/harness';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { archiveRuns, archiveSegments, cashIns, tasks } from '../support/ledger-reads';
import { addIndexEntries, ageCashIns, ageEntries, setTasksDue, wakeIn } from '../support/ledger-writes';

const DAY = 86_400_000;

/** The operator's archive run; a `before` days ahead also folds today (a day folds once it ended a day before the cutoff). */
const archive = (api: Integrator, aheadMs = 1) =>
  admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
    before: new Date(Date.now() + aheadMs).toISOString(),
  });

async function paidCashIn(api: Integrator): Promise<string> {
  const c = await createCashIn(api);
  await payCashIn(api, c.internalCode as string);
  return c.transactionId as string;
}

/** GET by each id of the transactions, answered bytes, each GET's reads of R2 and the registry counted. */
async function idReads(api: Integrator, kind: 'cash-in' | 'cash-out', txIds: string[]) {
  const ids: string[] = [];
  for (const txId of txIds) {
    const view = (await (await api.get(`/${kind}/${txId}`)).json()) as Record<string, unknown>;
    for (const key of ['internalCode', 'transactionId', 'endToEndId', 'externalReference'])
      if (typeof view[key] === 'string') ids.push(view[key] as string);
  }
  const counted = await countReads(api);
  const answers = new Map<string, string>();
  let most = 0;
  for (const id of ids) {
    // Cold: no decoded segment or run body cached, so every read the GET needs is counted.
    await runInDurableObject(ledgerStub(api.client.clientId), () => forgetDecoded());
    const start = counted.r2 + counted.registry;
    const res = await api.get(`/${kind}/${encodeURIComponent(id)}`);
    answers.set(`${kind} ${id}`, `${res.status} ${await res.text()}`);
    most = Math.max(most, counted.r2 + counted.registry - start);
  }
  return { answers, most, r2: counted.r2, registry: counted.registry };
}

const fold = (api: Integrator, cutoff: number) =>
  runInDurableObject(ledgerStub(api.client.clientId), (instance) =>
    foldAll(ledgerContextOf(instance), cutoff),
  );

/** Every R2 object under a prefix and its bytes. */
async function objects(prefix: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const o of (await env.ARCHIVE.list({ prefix })).objects) {
    const body = await env.ARCHIVE.get(o.key);
    out.set(o.key, body ? [...new Uint8Array(await body.arrayBuffer())].join(',') : '');
  }
  return out;
}

/** The balance body without its `asOf` instant (every entry archived: the books' hot chain is empty). */
const balanceText = async (api: Integrator) => {
  const { asOf: _asOf, ...rest } = (await (await api.get('/account/balance')).json()) as Record<
    string,
    unknown
  >;
  return JSON.stringify(rest);
};

const clientIdOf = (api: Integrator) => api.client.clientId;

const looseOf = async (api: Integrator) =>
  (await archiveSegments(api.client.clientId)).filter((s) => s.kind !== 'delivery');

describe('the archive manifest folded into R2', () => {
  it('every read answers the same bytes across every generation, ≤ 3 reads a GET; references stay taken; a folded Cash-In is refunded', async () => {
    const api = await Integrator.create();
    // The first generation: ids in the object's own index (never folded).
    const legacy = [await paidCashIn(api)];
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
    const pairs = await registryContents(api.client.clientId);
    await addIndexEntries(api.client.clientId, pairs);
    await clearRegistry(api.client.clientId);
    const floor = Math.max(...pairs.map(([, segment]) => segment));
    // Its indexed segments (a ledger segment indexes no id: it may fold).
    const firstGeneration = (await looseOf(api)).filter((s) => s.id <= floor);
    expect(firstGeneration.length).toBeGreaterThan(0);
    // To be folded: one Cash-In archived alone (its segment's key is its seqs), then a whole history.
    const alone = await paidCashIn(api);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
    const h = await history(api);
    expect(
      ((await (await archive(api)).json()) as { archivedTransactions: number }).archivedTransactions,
    ).toBeGreaterThan(5);
    // To stay loose: archived after the fold. Hot: a charge not paid.
    const late = [await paidCashIn(api), await paidCashIn(api)];
    const lateOut = (await createCashOut(api, { amount: 7 })).transactionId;
    await settled(api, lateOut);
    const open = (await createCashIn(api)).transactionId as string;
    const ins = [...legacy, alone, ...late, open];
    const before = await everything(api, h);
    const inBefore = await idReads(api, 'cash-in', ins);
    const outBefore = await idReads(api, 'cash-out', [...h.outs, lateOut]);

    await fold(api, Date.now() + 3 * DAY);
    const runs = await archiveRuns(api.client.clientId);
    const kinds = new Set(runs.map((r) => r.kind));
    expect(kinds.has('cash-in') && kinds.has('cash-out')).toBe(true);
    expect([...kinds].some((k) => k.startsWith('ledger:'))).toBe(true);
    // What stays loose: the first generation's segments only.
    expect(await looseOf(api)).toEqual(firstGeneration);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 3 });
    const loose = await looseOf(api);
    expect(loose.filter((s) => s.id > floor).map((s) => s.kind)).toEqual(
      expect.arrayContaining(['cash-in', 'cash-out']),
    );
    expect(await archiveRuns(api.client.clientId)).toEqual(runs);

    same(await everything(api, h), before);
    const inAfter = await idReads(api, 'cash-in', ins);
    const outAfter = await idReads(api, 'cash-out', [...h.outs, lateOut]);
    expect(inAfter.answers).toEqual(inBefore.answers);
    expect(outAfter.answers).toEqual(outBefore.answers);
    // A folded transaction's GET: the registry, the run's body, the segment.
    expect(inAfter.most).toBe(3);
    expect(outAfter.most).toBe(3);

    // References archived long ago (folded) stay taken, Cash-In and Cash-Out.
    const inRef = (await (await api.get(`/cash-in/${alone}`)).json()) as { externalReference: string };
    const again = await api.post('/cash-in', cashInBody({ externalReference: inRef.externalReference }));
    expect(again.status).toBe(409);
    expect(await problemCode(again)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    const outRef = (await getCashOut(api, h.outs[0]!)) as unknown as { externalReference: string };
    const out = await api.signedPost(
      '/cash-out',
      cashOutBody({ externalReference: outRef.externalReference }),
    );
    expect(out.status).toBe(409);
    expect(await problemCode(out)).toBe('DUPLICATED_EXTERNAL_REFERENCE');

    // A folded Cash-In refunded (it comes back hot) and archived again alone: a segment of its own,
    // and the old one (same seqs) keeps its bytes.
    const segmentsBefore = await objects(`${api.client.clientId}/cash-in/`);
    const balanceBeforeRefund = await balanceText(api);
    expect((await api.signedPost(`/cash-in/${alone}/refund`, { reason: 'FRAUD' })).status).toBe(202);
    await waitFor(
      async () => ((await (await api.get(`/cash-in/${alone}`)).json()) as { status: string }).status,
      (s) => s === 'REFUNDED',
      30_000,
    );
    const refunded = await idReads(api, 'cash-in', [alone]);
    // (assertBooks reads the hot chain only: with earlier entries archived it cannot start it.)
    const balance = await balanceText(api);
    expect(balance).not.toBe(balanceBeforeRefund);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 1 });
    const segmentsAfter = await objects(`${api.client.clientId}/cash-in/`);
    for (const [key, bytes] of segmentsBefore) expect(segmentsAfter.get(key), key).toBe(bytes);
    expect(segmentsAfter.size).toBe(segmentsBefore.size + 1);
    expect((await idReads(api, 'cash-in', [alone])).answers).toEqual(refunded.answers);
    expect(await balanceText(api)).toBe(balance);
    // Its old copy's registry pairs left with the rehydration: a GET reads the registry, the new
    // segment's run once folded too, and the segment, never the stale copy.
    await fold(api, Date.now() + 3 * DAY);
    const rearchived = await idReads(api, 'cash-in', [alone]);
    expect(rearchived.answers).toEqual(refunded.answers);
    expect(rearchived.most).toBe(3);
  });

  it('a crash between the run’s put and the object’s transaction loses and doubles nothing; a folded Cash-In is bank-returned', async () => {
    const api = await Integrator.create();
    const ins = [await paidCashIn(api), await paidCashIn(api), await paidCashIn(api)];
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 3 });
    const before = await idReads(api, 'cash-in', ins);
    const list = async () => (await api.get('/cash-in?limit=10')).text();
    const listed = await list();
    const balance = await balanceText(api);
    const loose = await looseOf(api);
    await armCrash(api, 'archive.run-written');
    expect((await archive(api, 3 * DAY).catch(() => undefined))?.status ?? 500).toBe(500);
    expect(await crashedAt(api, 'archive.run-written')).toBeDefined();
    // The body is in R2, unreferenced; the rows are all still loose and serve every read.
    expect((await env.ARCHIVE.list({ prefix: `${api.client.clientId}/manifest/` })).objects).toHaveLength(1);
    expect(await archiveRuns(api.client.clientId)).toEqual([]);
    expect(await looseOf(api)).toEqual(loose);
    expect((await idReads(api, 'cash-in', ins)).answers).toEqual(before.answers);
    // The re-run folds every loose row once; the retried body overwrote the orphan (same key).
    expect(await (await archive(api, 3 * DAY)).json()).toEqual({ archivedTransactions: 0 });
    const runs = await archiveRuns(api.client.clientId);
    expect(runs.reduce((n, r) => n + r.segments, 0)).toBe(loose.length);
    expect(await looseOf(api)).toEqual([]);
    const bodies = (await env.ARCHIVE.list({ prefix: `${api.client.clientId}/manifest/` })).objects;
    expect(bodies).toHaveLength(runs.length);
    expect((await idReads(api, 'cash-in', ins)).answers).toEqual(before.answers);
    expect(await list()).toBe(listed);
    expect(await balanceText(api)).toBe(balance);
    // A bank return (MED) of a Cash-In whose manifest row is folded: it comes back hot, then REFUNDED.
    const view = (await (await api.get(`/cash-in/${ins[0]}`)).json()) as { internalCode: string };
    const returned = await api.post(`/sandbox/cash-in/${view.internalCode}/return`, { reason: 'FRAUD' });
    expect(returned.status).toBe(200);
    expect(((await returned.json()) as { status: string }).status).toBe('REFUNDED');
    expect(await cashIns(api.client.clientId)).toHaveLength(1);
    expect(await balanceText(api)).not.toBe(balance);
  });

  it('lists, statements and summaries over folded days, a loose day and hot rows answer as before the fold', async () => {
    const api = await Integrator.create();
    const times: number[] = [];
    const codes: string[] = [];
    /** Paid Cash-Ins, then everything (stored times, entries) moved `days` into the past. */
    const day = async (n: number, days: number) => {
      for (let i = 0; i < n; i++) {
        const c = await createCashIn(api, { amount: 10 + i });
        await payCashIn(api, c.internalCode as string);
        codes.push(c.internalCode as string);
      }
      await ageCashIns(api.client.clientId, days * DAY);
      await ageEntries(api.client.clientId, days * DAY);
      for (let i = 0; i < times.length; i++) times[i] = (times[i] as number) - days * DAY;
      times.push(Date.now() - days * DAY);
    };
    await day(4, 4); // 7 days ago once the next day moves it 3 more
    await day(3, 3); // 3 days ago
    await day(3, 0); // today: archived, not folded (its day is not over)
    codes.push((await createCashIn(api)).internalCode as string); // hot
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 10 });
    const iso = (ms: number) => new Date(ms).toISOString();
    const periods: [string, string][] = [
      [brtDate(-9), brtDate(1)],
      [brtDate(-7), brtDate(-3)],
      [iso((times[0] as number) - 60_000), iso((times[1] as number) + 1)],
      [iso(times[1] as number), iso(Date.now() + 60_000)],
    ];
    const accounts = api.client.accounts.map((a) => a.number);
    const instants = [...times, Date.now()];
    const reads = async () =>
      new Map([
        ...(await allReads(api, 'cash-in', periods, codes)),
        ...(await ledgerReads(api, accounts, periods, instants)),
      ]);
    const before = await reads();

    await fold(api, Date.now());
    const runs = (await archiveRuns(api.client.clientId)).filter((r) => r.kind === 'cash-in');
    expect(new Set(runs.map((r) => r.dayStart)).size).toBe(2);
    expect(runs.reduce((n, r) => n + r.rows, 0)).toBe(7);
    const loose = (await looseOf(api)).filter((s) => s.kind === 'cash-in');
    expect(loose.reduce((n, s) => n + (s.count ?? 0), 0)).toBe(3);
    same(await reads(), before);
    // A one-item page reads one day's runs: its run's body and its segment, not every folded day's.
    for (const order of ['asc', 'desc']) {
      await runInDurableObject(ledgerStub(clientIdOf(api)), () => forgetDecoded());
      const counted = await countReads(api);
      const page = await api.get(`/cash-in?from=${brtDate(-9)}&to=${brtDate(-2)}&order=${order}&limit=1`);
      expect(page.status).toBe(200);
      expect(counted.r2, order).toBe(2);
    }
  });

  it('the scheduled archive task folds the closed days once it has nothing to move, then waits', async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const ins = [await paidCashIn(api), await paidCashIn(api)];
    await ageCashIns(clientId, 40 * DAY);
    await ageEntries(clientId, 40 * DAY);
    const before = await idReads(api, 'cash-in', ins);
    const alarm = async () => {
      await setTasksDue(clientId, { id: 'archive:all' }, Date.now() - 1);
      await wakeIn(clientId, -1);
      await runDurableObjectAlarm(ledgerStub(clientId));
    };
    // Steps move the rows, then fold one run per step (cash-in, then each account's entries).
    for (let i = 0; i < 12 && (await looseOf(api)).length + (await cashIns(clientId)).length > 0; i++)
      await alarm();
    expect(await looseOf(api)).toEqual([]);
    const runs = await archiveRuns(clientId);
    expect(runs.map((r) => r.kind)).toContain('cash-in');
    expect(runs.some((r) => r.kind.startsWith('ledger:'))).toBe(true);
    expect((await idReads(api, 'cash-in', ins)).answers).toEqual(before.answers);
    // Nothing left to move or fold: the task waits (a day at least), it does not spin.
    await alarm();
    const due = (await tasks(clientId)).find((t) => t.id === 'archive:all')?.dueAt;
    expect(due === undefined || due > Date.now() + 60_000).toBe(true);
  });
});
