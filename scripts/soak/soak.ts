/**
 * One soak run, the same from Node against the local runtime (`npm run soak`, scripts/soak/run.ts)
 * and inside workerd in vitest (test/soak/soak-short.test.ts): traffic, wait for finality,
 * collect, check every invariant, print the figures. `ok` is false when any invariant failed.
 */
import { type FetchLike, Gateway } from './api';
import { bankSummary, checkBankBooks, withoutProvokedErrors } from './bank-books';
import { type BankOptions, type BankRun, driveBankTraffic } from './bank-traffic';
import { collectSnapshot, type PartnerBooks } from './collect';
import { checkInvariants, type InvariantResult } from './invariants';
import { FAULTS, type FaultPlan, PARTNER_SETS, Random } from './plan';
import { formatReport } from './report';
import type { Snapshot, WorkerLog } from './snapshot';
import { driveTraffic } from './traffic';

export interface SoakOptions {
  fetch: FetchLike;
  baseUrl: string;
  adminToken: string;
  durationMs: number;
  clients?: number;
  concurrency?: number;
  seed?: number;
  /**
   * Partner faults for part of the run, always cleared at the end: true (default) the plan's
   * FAULTS, false none, or an explicit list.
   */
  faults?: boolean | FaultPlan[];
  /** The partners of client i are partnerSets[i % length] (default: the plan's PARTNER_SETS). */
  partnerSets?: string[][];
  /** Archive every client's closed history this often while the traffic runs (default 5 s; 0 never). */
  archiveEveryMs?: number;
  /**
   * Other test files share the partners (and their faults) with this run: also accept a Cash-Out
   * cancelled with the code its partner's books show it failed with, whoever injected that fault.
   */
  tolerateForeignFaults?: boolean;
  readPartnerBooks: PartnerBooks;
  /** The worker's console so far, where the caller can watch it (checked: no error line). */
  workerLog?: () => WorkerLog;
  /**
   * A real-bank partner (the mock PSP) beside the sandbox ones: its own clients and traffic, PSP
   * outages, lost callbacks, and its books compared with the PSP's at the end (bank-traffic.ts).
   */
  bank?: BankOptions;
  /** How long to wait for every transaction to become final after the traffic. */
  finalityTimeoutMs?: number;
  progress?: (line: string) => void;
}

export interface SoakResult {
  ok: boolean;
  results: InvariantResult[];
  snapshot?: Snapshot;
  report: string;
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const started = Date.now();
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const clients = o.clients ?? 4;
  const concurrency = o.concurrency ?? 8;
  const progress = o.progress ?? (() => undefined);
  const gateway = new Gateway(o.fetch, o.baseUrl, o.adminToken);
  const archiveEveryMs = o.archiveEveryMs ?? 5_000;
  let bankRun: Promise<BankRun> | undefined;
  const { log, clients: soakClients } = await driveTraffic({
    gateway,
    random: new Random(seed),
    clients,
    concurrency,
    durationMs: o.durationMs,
    faults: o.faults === false ? [] : o.faults === true || o.faults === undefined ? FAULTS : o.faults,
    partnerSets: o.partnerSets ?? PARTNER_SETS,
    archiveEveryMs,
    log: progress,
    // The bank leg starts with the sandbox traffic and shares its log's archive counts.
    onStart: (trafficLog) => {
      if (o.bank)
        bankRun = driveBankTraffic(
          gateway,
          new Random(seed + 1),
          o.bank,
          o.durationMs,
          archiveEveryMs,
          trafficLog,
          progress,
        );
    },
  });
  const bank = await bankRun;
  progress(`traffic done: ${log.transactions.length} transactions; waiting for them to become final`);
  let snapshot: Snapshot | undefined;
  let results: InvariantResult[];
  try {
    snapshot = await collectSnapshot({
      gateway,
      clients: soakClients,
      log,
      readPartnerBooks: o.readPartnerBooks,
      concurrency,
      finalityTimeoutMs: o.finalityTimeoutMs ?? 60_000,
      progress,
    });
    snapshot.tolerateForeignFaults = o.tolerateForeignFaults ?? false;
    // The bank leg's books first: the worker log is read after its wait, with everything it caused.
    const bankResults = bank && o.bank ? await checkBankBooks(bank, o.bank, gateway, progress) : [];
    if (o.workerLog) snapshot.workerLog = bank ? withoutProvokedErrors(o.workerLog(), bank) : o.workerLog();
    results = [...checkInvariants(snapshot), ...bankResults];
  } catch (error) {
    results = [{ name: 'collecting the final state', checked: 0, failures: [String(error)] }];
  }
  const report0 = formatReport({
    title:
      `ConnectPSP soak — ${new Date(started).toISOString()}; ${clients} clients, concurrency ${concurrency}, ` +
      `seed ${seed}${o.faults === false ? ', no faults' : ''}`,
    log,
    tally: gateway.tally,
    ...(snapshot && { snapshot }),
    results,
    elapsedMs: Date.now() - started,
  });
  const report = bank ? `${report0}\n${bankSummary(bank.log).join('\n')}` : report0;
  return {
    ok: results.every((r) => r.failures.length === 0),
    results,
    ...(snapshot && { snapshot }),
    report,
  };
}
