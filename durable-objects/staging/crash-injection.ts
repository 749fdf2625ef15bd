/**
 * Staging-only crash injection for the recovery tests (test/crash/), at the points of
 * durable-objects/ledger/crash-points.ts. An armed point makes everything committed so far durable,
 * leaves a `crashed:<point>` key as a trace, then aborts the object: its memory is gone and nothing
 * after the point runs, as after an eviction or a machine failure. Recovery is then up to the alarm
 * (retried by the runtime when it dies), the cron sweep and the client's retries. Only the staging
 * entry's ClientLedger (./client-ledger.ts) builds one; production's ledger passes every point.
 */
import type { CrashHook, CrashPoint } from '../ledger/crash-points';

export class CrashPoints implements CrashHook {
  private readonly armed = new Set<CrashPoint>();

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly abort: (reason: string) => void,
  ) {}

  arm(point: CrashPoint): void {
    this.armed.add(point);
  }

  /** Dies here if the point is armed (once); otherwise does nothing. */
  async reach(point: CrashPoint): Promise<void> {
    if (!this.armed.delete(point)) return;
    // The trace tells a test the crash really happened (memory does not survive it).
    await this.storage.put(`crashed:${point}`, Date.now());
    await this.storage.sync();
    this.abort(`simulated crash at ${point}`);
    throw new Error(`simulated crash at ${point}`);
  }
}
