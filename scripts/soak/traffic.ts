/**
 * The traffic phase: onboards the soak's clients (each with its own partners, an approval
 * threshold, funded accounts), then runs the weighted scenario mix with bounded concurrency until
 * the deadline, with the partner faults of the plan switched on for part of the run and always
 * cleared at the end.
 */
import { ClientSession, type Gateway, type Onboarded, UnexpectedResponse } from './api';
import { startArchiver } from './archiver';
import {
  AmountPicker,
  APPROVAL_THRESHOLD_CENTS,
  type FaultPlan,
  faultWindow,
  INITIAL_DEPOSIT_CENTS,
  partnersOf,
  type Random,
} from './plan';
import { deposit, RUNNERS } from './scenarios';
import type { FaultRecord, TrafficLog } from './snapshot';
import type { SoakClient, TrafficContext } from './soak-context';

export interface TrafficOptions {
  gateway: Gateway;
  random: Random;
  clients: number;
  concurrency: number;
  durationMs: number;
  /** Partner faults switched on for part of the run (none: no faults). */
  faults: FaultPlan[];
  /** The partners of client i are partnerSets[i % length]. */
  partnerSets: string[][];
  /** Archive every client's closed history this often while the traffic runs (0: never). */
  archiveEveryMs: number;
  log: (line: string) => void;
  /** Called as the traffic starts, with its log (other traffic run beside it: bank-traffic.ts). */
  onStart?: (log: TrafficLog) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function newTrafficLog(): TrafficLog {
  return {
    transactions: [],
    deposits: [],
    rebalances: [],
    retries: [],
    faults: [],
    ops: new Map(),
    trafficMs: 0,
    archive: { calls: 0, archived: 0 },
  };
}

async function onboard(t: TrafficContext, index: number, run: string, sets: string[][]): Promise<SoakClient> {
  const partners = partnersOf(index, sets);
  const created = await t.gateway.admin(
    'setup',
    'POST',
    '/admin/clients',
    { name: `Soak ${run} #${index + 1}`, partners },
    [201],
  );
  const client = created.body as Onboarded;
  await t.gateway.admin(
    'setup',
    'PATCH',
    `/admin/clients/${client.clientId}`,
    { approvalThreshold: APPROVAL_THRESHOLD_CENTS / 100 },
    [200],
  );
  const soakClient: SoakClient = {
    session: new ClientSession(t.gateway, client),
    clientId: client.clientId,
    partners,
    accounts: client.accounts,
    statementStartDate: client.statementStartDate,
    amounts: new AmountPicker(t.random),
  };
  for (const account of client.accounts) {
    await deposit(t, soakClient, 'setup', account.number, INITIAL_DEPOSIT_CENTS);
  }
  return soakClient;
}

/** Switches the plan's faults on at the window's start and off at its end (or when aborted). */
async function faultController(
  t: TrafficContext,
  plans: FaultPlan[],
  startedAt: number,
  durationMs: number,
  stop: Promise<void>,
): Promise<() => Promise<void>> {
  const window = faultWindow(durationMs);
  const active: FaultRecord[] = [];
  const clear = async () => {
    for (const fault of active.splice(0)) {
      await t.gateway.admin('faults', 'DELETE', `/admin/partners/${fault.ispb}/faults`, undefined, [204]);
      fault.to = Date.now();
    }
  };
  const run = async () => {
    if ((await Promise.race([sleep(window.startMs), stop.then(() => 'stop')])) === 'stop') return;
    for (const plan of plans) {
      const fault: FaultRecord = {
        ispb: plan.ispb,
        operation: plan.operation,
        ...(plan.failureCode !== undefined && { failureCode: plan.failureCode }),
        from: Date.now(),
        to: Number.POSITIVE_INFINITY,
      };
      t.log.faults.push(fault);
      active.push(fault);
      await t.gateway.admin(
        'faults',
        'POST',
        `/admin/partners/${plan.ispb}/faults`,
        {
          operation: plan.operation,
          failureRate: plan.failureRate,
          ...(plan.failureCode !== undefined && { failureCode: plan.failureCode }),
          latencyMs: plan.latencyMs,
          minutes: Math.ceil((window.endMs - window.startMs) / 60_000) + 1,
        },
        [201],
      );
    }
    const untilEnd = startedAt + window.endMs - Date.now();
    await Promise.race([sleep(Math.max(0, untilEnd)), stop]);
    await clear();
  };
  const running = run();
  return async () => {
    await running.catch(() => undefined);
    await clear();
  };
}

export async function driveTraffic(
  options: TrafficOptions,
): Promise<{ log: TrafficLog; clients: SoakClient[] }> {
  const { gateway, random } = options;
  const log = newTrafficLog();
  const run = Math.floor(random.next() * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
  let sequence = 0;
  const t: TrafficContext = {
    gateway,
    random,
    log,
    reference: (prefix) => `soak-${run}-${prefix}-${++sequence}`,
  };
  const clients: SoakClient[] = [];
  for (let i = 0; i < options.clients; i++) clients.push(await onboard(t, i, run, options.partnerSets));
  options.log(
    `onboarded ${clients.length} clients (run ${run}); traffic for ${Math.round(options.durationMs / 1000)} s, ` +
      `concurrency ${options.concurrency}${options.faults.length > 0 ? ', partner faults from 25 % to 60 %' : ''}`,
  );

  const startedAt = Date.now();
  const deadline = startedAt + options.durationMs;
  options.onStart?.(log);
  let stopFaults: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stopFaults = resolve;
  });
  const endFaults =
    options.faults.length > 0
      ? await faultController(t, options.faults, startedAt, options.durationMs, stopped)
      : async () => undefined;
  const stopArchiver =
    options.archiveEveryMs > 0
      ? startArchiver(gateway, clients, log, options.archiveEveryMs)
      : async () => undefined;
  let progressAt = startedAt;
  const worker = async () => {
    while (Date.now() < deadline) {
      const scenario = random.scenario();
      const client = random.pick(clients);
      const stat = log.ops.get(scenario) ?? { ok: 0, failed: 0 };
      log.ops.set(scenario, stat);
      try {
        await RUNNERS[scenario](t, client, scenario);
        stat.ok += 1;
      } catch (error) {
        stat.failed += 1;
        if (!(error instanceof UnexpectedResponse)) {
          gateway.tally.unexpected.push({
            op: scenario,
            method: '-',
            path: '-',
            status: -1,
            detail: String(error),
          });
        }
      }
      if (Date.now() - progressAt >= 60_000) {
        progressAt = Date.now();
        const done = [...log.ops.values()].reduce((sum, s) => sum + s.ok + s.failed, 0);
        options.log(`${Math.round((progressAt - startedAt) / 1000)} s: ${done} operations`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    stopFaults();
    await endFaults();
    await stopArchiver();
  }
  log.trafficMs = Date.now() - startedAt;
  return { log, clients };
}
