/**
 * The ClientLedger the staging entry (src/staging/index.ts) exports: production's ledger plus the
 * machinery that only staging may run, so that none of it is in the production bundle —
 * `bench()` seeds a client's history for `npm run bench`'s `@history` twins (./bench-seed.ts), and
 * `armCrash()` arms a crash point for the recovery tests (./crash-injection.ts). Both refuse outside
 * staging, so a staging bundle deployed by mistake still fails closed.
 */
import { isStaging } from '../../src/config';
import { ClientLedger } from '../client-ledger';
import type { CrashPoint } from '../ledger/crash-points';
import { type BenchOp, benchOp, type HistoryTemplate } from './bench-seed';
import { CrashPoints } from './crash-injection';

export class StagingClientLedger extends ClientLedger {
  private readonly crashPoints: CrashPoints;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.crashPoints = new CrashPoints(ctx.storage, (reason) => ctx.abort(reason));
    this.crashes = this.crashPoints;
  }

  /** Bench only (./bench-seed.ts): refuses unless bench seeding is enabled. */
  bench(op: BenchOp): HistoryTemplate | undefined {
    return benchOp(this.env, this.db, this.ctx.storage, op);
  }

  /** Recovery tests only: the object dies the next time it reaches `point`. */
  armCrash(point: CrashPoint): void {
    if (!isStaging(this.env)) throw new Error('crash injection is staging-only');
    this.crashPoints.arm(point);
  }
}

/** The client's Durable Object as the staging entry serves it (bench and crash RPCs included). */
export function stagingLedgerOf(env: Env, clientId: string) {
  return (env.CLIENT_LEDGER as DurableObjectNamespace<StagingClientLedger>).getByName(clientId);
}
