/**
 * The soak (scripts/soak) in short form inside workerd: ~20 s of mixed traffic from 4 clients
 * through the real router, Durable Objects, alarms, D1 and queues, with partner faults for part of
 * it, archiving every client's closed history to R2 every 3 s meanwhile, then every invariant. The same collected state, tampered three ways, must fail the checker:
 * a soak whose checks cannot fail would prove nothing.
 */
import { env, exports } from 'cloudflare:workers';
import { expect, it, vi } from 'vitest';
import { checkInvariants } from '../../scripts/soak/invariants';
import { d1PartnerBooks } from '../../scripts/soak/partner-books';
import { runSoak } from '../../scripts/soak/soak';
import { ADMIN_TOKEN, BASE } from '../support/harness';

const ALFA = '31880826';
const GAMA = '56431109';
/**
 * How long the transactions may take to end once the traffic stops: a hang guard, not a bound (a
 * busy two-core machine takes several times what the run alone does). The test's own time-out adds
 * the traffic's 20 s and a margin for collecting and checking.
 */
const FINALITY_MS = 120_000;
const SOAK = { timeout: 20_000 + FINALITY_MS + 120_000 };

const failed = (snapshot: Parameters<typeof checkInvariants>[0]) =>
  checkInvariants(snapshot)
    .filter((r) => r.failures.length > 0)
    .map((r) => r.name);

/** The worker runs in this isolate: its console is watched (and kept out of the output) meanwhile. */
function watchConsole() {
  const log = { lines: 0, warnings: 0, errors: [] as string[] };
  const spies = (['log', 'info', 'warn', 'error'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      log.lines += 1;
      const line = args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
      if (method === 'warn') log.warnings += 1;
      if (method === 'error') log.errors.push(line);
    }),
  );
  const restore = () => {
    for (const spy of spies) spy.mockRestore();
  };
  return { log, restore };
}

it('a short soak with partner faults keeps every invariant', SOAK, async () => {
  const watch = watchConsole();
  const result = await runSoak({
    fetch: (request) => exports.default.fetch(request),
    baseUrl: BASE,
    adminToken: ADMIN_TOKEN,
    durationMs: 20_000,
    clients: 4,
    concurrency: 6,
    // Partner faults are global and other test files run beside this one: Beta, which other files
    // slow down for seconds or fail at 90 %, is left out; faults go to Gama only, and a Cash-Out
    // another file's Gama fault cancelled counts when Gama's books show that failure.
    partnerSets: [[ALFA], [GAMA, ALFA], [ALFA, GAMA], [GAMA]],
    tolerateForeignFaults: true,
    faults: [
      {
        ispb: GAMA,
        operation: 'CASH_OUT',
        failureRate: 0.3,
        failureCode: 'PAYEE_BANK_UNAVAILABLE',
        latencyMs: 150,
      },
      { ispb: GAMA, operation: 'CASH_IN', failureRate: 0, latencyMs: 120 },
    ],
    readPartnerBooks: d1PartnerBooks(env.DB),
    finalityTimeoutMs: FINALITY_MS,
    archiveEveryMs: 3_000,
    workerLog: () => watch.log,
  }).finally(watch.restore);
  console.log(result.report);
  expect(result.results.flatMap((r) => r.failures)).toEqual([]);
  expect(result.ok).toBe(true);
  const snapshot = result.snapshot!;
  // The run really exercised what it claims: money moved, Cash-Outs reached partners, faults ran.
  expect(snapshot.transactions.length).toBeGreaterThan(50);
  expect(snapshot.partner.some((r) => r.kind === 'PAYMENT' && r.outcome === 'SETTLED')).toBe(true);
  expect(snapshot.faults.length).toBeGreaterThan(0);
  expect(snapshot.faults.every((f) => Number.isFinite(f.to))).toBe(true);
  // History moved to R2 while the traffic ran (every 3 s), and every read above still agreed.
  expect(snapshot.archive.archived).toBeGreaterThan(0);

  // A Cash-Out that lost its outcome event.
  const lostEvent = structuredClone(snapshot);
  const cashOut = lostEvent.transactions.find((tx) => tx.kind === 'CASH_OUT' && tx.events.length > 1)!;
  cashOut.events.pop();
  expect(failed(lostEvent)).toEqual(['transactions end as planned, with a valid event history']);

  // A statement entry whose balanceAfter does not follow from the entries before it.
  const brokenChain = structuredClone(snapshot);
  const entry = brokenChain.accounts.find((a) => a.statement.length > 2)!.statement[1]!;
  entry.balanceAfterCents = (entry.balanceAfterCents ?? 0) + 1;
  expect(failed(brokenChain)).toEqual(['accounts reconcile (statement = balance)']);

  // A payment the partner settled a second time, under the same id at another partner.
  const paidTwice = structuredClone(snapshot);
  const payment = paidTwice.partner.find((r) => r.kind === 'PAYMENT' && r.outcome === 'SETTLED')!;
  paidTwice.partner.push({ ...payment, ispb: payment.ispb === '31880826' ? '42273459' : '31880826' });
  expect(failed(paidTwice)).toEqual(['no payment reached a partner twice; partner totals = PIX_OUT']);
});
