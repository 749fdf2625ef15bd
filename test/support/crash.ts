/**
 * Crash injection for recovery tests: arm a point of durable-objects/ledger/crash-points.ts in a
 * client's ClientLedger (staging only); the object aborts when it gets there. Recovery is the
 * platform's own: the alarm, or the cron sweep this file can run for one client.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { CrashPoint } from '../../durable-objects/ledger/crash-points';
import type { Integrator } from './harness';
import { ledgerStub } from './ledger';
import { OUTCOME_MS, waitUntil } from './wait';

const ledger = (api: Integrator) => env.CLIENT_LEDGER.getByName(api.client.clientId);

export async function armCrash(api: Integrator, point: CrashPoint): Promise<void> {
  await ledger(api).armCrash(point);
}

/** What the every-minute cron does for this client: run overdue work and re-arm the alarm. */
export async function cronSweep(api: Integrator): Promise<void> {
  await ledger(api).sweep();
}

/** When the object died at `point` (its trace), or undefined if it never got there. */
export function crashedAt(api: Integrator, point: CrashPoint): Promise<number | undefined> {
  return runInDurableObject(ledgerStub(api.client.clientId), (_i, state) =>
    state.storage.get<number>(`crashed:${point}`),
  );
}

/** Waits until the object dies at `point` (later than `after`); returns when it did. */
export async function waitForCrash(api: Integrator, point: CrashPoint, after = 0): Promise<number> {
  const at = await waitUntil(
    () => crashedAt(api, point),
    (t) => t !== undefined && t > after,
    OUTCOME_MS,
    `the object to die at ${point}`,
  );
  return at as number;
}
