/**
 * The hot window is bounded by size as well as age (durable-objects/ledger/archive/archive.ts,
 * docs/operating.md "Capacity planning"): a burst that takes the object past its configured budget
 * archives closed history early, though ARCHIVE_RETENTION_DAYS (35 here) keeps it hot by age; open
 * work (a Cash-In waiting for payment, a Cash-Out waiting for approval) stays hot; every read answers
 * the same bytes and the books are what they were.
 */
import { runInDurableObject } from 'cloudflare:test';
import { expect, it } from 'vitest';
import {
  archiveCutoff,
  armArchive,
  overBudget,
  runArchiveTask,
} from '../../durable-objects/ledger/archive/archive';
import type { LedgerContext } from '../../durable-objects/ledger/ledger-context';
import { DUPLICATE_WINDOW_MS } from '../../src/domain/cash-out';
import { everything, history, same } from '../support/archive-history';
import { createCashIn, waitFor } from '../support/cash-in';
import { admin, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { cashIns, cashOuts, deliveries, outboxRows } from '../support/ledger-reads';

const hot = async (api: Integrator) => {
  const [ins, outs] = [await cashIns(api.client.clientId), await cashOuts(api.client.clientId)];
  return {
    ins: ins.length,
    outs: outs.length,
    open: ins.filter((c) => c.status === 'AWAITING_PAYMENT').length,
    pending: outs.filter((c) => c.status === 'PENDING').length,
  };
};
const ENDED = ['DELIVERED', 'UNDELIVERABLE'];
/** The object's live SQLite bytes, what the budget compares (archive.ts overBudget). */
const liveBytes = (storage: DurableObjectStorage) => {
  const { sql: file } = storage;
  return file.databaseSize;
};

/** Runs the scheduled archive task as the alarm would, under `budget`, until it has nothing early to do. */
function archiveUnder(api: Integrator, budget: number | undefined) {
  return runInDurableObject(ledgerStub(api.client.clientId), async (instance) => {
    const ledger = ledgerContextOf(instance);
    const ctx: LedgerContext = {
      ...ledger,
      env: {
        ...ledger.env,
        ...(budget !== undefined && { ARCHIVE_HOT_BUDGET_BYTES: String(budget) }),
      } as Env,
    };
    // The housekeeping's arming pulls the archive task to now while over budget (a day later else).
    const armedFrom = Date.now();
    armArchive(ctx, armedFrom);
    const armed = ctx.scheduler.dueAt('archive', 'all');
    if (budget !== undefined) expect(armed).toBeLessThanOrEqual(armedFrom + 5_000);
    const sizes: number[] = [liveBytes(ctx.storage)];
    for (let i = 0; i < 200; i++) {
      await runArchiveTask(ctx);
      sizes.push(liveBytes(ctx.storage));
      if (!overBudget(ctx) || archiveCutoff(ctx, Date.now()) < Date.now() - DUPLICATE_WINDOW_MS) break;
      const due = ctx.scheduler.dueAt('archive', 'all');
      if (due === undefined || due > Date.now() + 60_000) break;
    }
    return sizes;
  });
}

it('a burst past the budget archives closed history early; open work stays; reads and books unchanged', async () => {
  const api = await Integrator.create();
  const h = await history(api);
  const open = await createCashIn(api);
  const books = await assertBooks(api, { settled: false });
  const before = await everything(api, h);
  const start = await hot(api);
  expect(start.open).toBe(2); // the unpaid one of the history and `open`
  expect(start.pending).toBe(1); // waiting for approval

  // Within the default budget (0.75 GB) and the 35 days of retention nothing is old enough to move.
  await archiveUnder(api, undefined);
  expect(await hot(api)).toEqual(start);

  // Every event adopted by its delivery and every delivery ended (none has a URL): the lists are final.
  const undelivered = async () =>
    (await outboxRows(api.client.clientId, 'webhook')).filter((e) => e.publishedAt === null).length +
    (await deliveries(api.client.clientId)).filter((d) => d.dueAt !== null).length;
  expect(await waitFor(undelivered, (n) => n === 0)).toBe(0);
  // Ended webhook deliveries of transactions that stay hot, and the operator's list of each.
  const hotIds = new Set(
    [...(await cashIns(api.client.clientId)), ...(await cashOuts(api.client.clientId))].map(
      (c) => c.transactionId,
    ),
  );
  const kept = [
    ...new Set(
      (await deliveries(api.client.clientId))
        .filter((d) => ENDED.includes(d.status) && hotIds.has(d.aggregateId))
        .map((d) => d.aggregateId),
    ),
  ];
  expect(kept.length).toBeGreaterThan(0);
  const deliveryList = async () => {
    const out: string[] = [];
    for (const id of kept) {
      const res = await admin(
        `/admin/clients/${api.client.clientId}/webhook-deliveries?aggregateId=${id}`,
        'GET',
      );
      out.push(`${res.status} ${await res.text()}`);
    }
    return out;
  };
  const deliveriesBefore = await deliveryList();

  // Over a small budget: closed rows older than the duplicate window leave, oldest first.
  const [size] = await runInDurableObject(ledgerStub(api.client.clientId), (_i, s) => [liveBytes(s.storage)]);
  const budget = Math.floor(size! * 0.9);
  await waitFor(
    async () => Date.now(),
    (now) => now > h.times.at(-1)! + DUPLICATE_WINDOW_MS + 1_000,
    DUPLICATE_WINDOW_MS * 3,
  );
  const sizes = await archiveUnder(api, budget);
  const after = await hot(api);
  expect(after).toEqual({ ins: 2, outs: 1, open: 2, pending: 1 });
  // A few rows free fewer pages than their manifest and index take at this scale; never more.
  expect(sizes.at(-1)!).toBeLessThanOrEqual(sizes[0]!);
  const cashIn = await api.get(`/cash-in/${open.transactionId}`);
  expect(cashIn.status).toBe(200);

  same(await everything(api, h), before);
  // Ended deliveries left too, though their transactions stay hot; listed by aggregateId as before.
  expect((await deliveries(api.client.clientId)).filter((d) => ENDED.includes(d.status))).toEqual([]);
  expect(await deliveryList()).toEqual(deliveriesBefore);
  const res = await api.get('/account/balance');
  const body = (await res.json()) as { partners: { accounts: { number: string; balance: number }[] }[] };
  for (const a of body.partners.flatMap((p) => p.accounts))
    expect(Math.round(a.balance * 100), a.number).toBe(books.balances.get(a.number));
});
