/**
 * The ClientLedger the staging entry (src/staging/index.ts) exports: production's ledger plus the
 * machinery that only staging may run, so that none of it is in the production bundle —
 * `bench()` seeds a client's history for `npm run bench`'s `@history` twins (./bench-seed.ts), and
 * `armCrash()` arms a crash point for the recovery tests (./crash-injection.ts), and `tamperBooks()`
 * spoils ledger writes for the invariant tests (./books-tamper.ts). All refuse outside
 * staging, so a staging bundle deployed by mistake still fails closed.
 */
import { isStaging } from '../../src/config';
import { ClientLedger } from '../client-ledger';
import type { CrashPoint } from '../ledger/crash-points';
import { setBooksTamper } from '../ledger/ledger/books-guard';
import { type BenchOp, benchOp, type Footprint, type HistoryTemplate } from './bench-seed';
import { BooksTampering, type TamperedRule } from './books-tamper';
import { CrashPoints } from './crash-injection';

export class StagingClientLedger extends ClientLedger {
  private readonly crashPoints: CrashPoints;
  private tampering: BooksTampering | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.crashPoints = new CrashPoints(ctx.storage, (reason) => ctx.abort(reason));
    this.crashes = this.crashPoints;
  }

  /** Bench only (./bench-seed.ts): refuses unless bench seeding is enabled. */
  bench(op: BenchOp): HistoryTemplate | Footprint | undefined {
    return benchOp(this.env, this.db, this.ctx.storage, op);
  }

  /** Recovery tests only: the object dies the next time it reaches `point`. */
  armCrash(point: CrashPoint): void {
    if (!isStaging(this.env)) throw new Error('crash injection is staging-only');
    this.crashPoints.arm(point);
  }

  /**
   * Invariant tests only (./books-tamper.ts): spoils every write of `rule`'s kind until called with
   * null; answers how many writes the previous tampering spoiled.
   */
  tamperBooks(rule: TamperedRule | null): number {
    if (!isStaging(this.env)) throw new Error('books tampering is staging-only');
    const fired = this.tampering?.fired ?? 0;
    this.tampering = rule === null ? undefined : new BooksTampering(rule);
    setBooksTamper(this.db, this.tampering);
    return fired;
  }

  /** How many writes the armed tampering has spoiled so far. */
  tamperedWrites(): number {
    return this.tampering?.fired ?? 0;
  }
}

/** The client's Durable Object as the staging entry serves it (bench and crash RPCs included). */
export function stagingLedgerOf(env: Env, clientId: string) {
  return (env.CLIENT_LEDGER as DurableObjectNamespace<StagingClientLedger>).getByName(clientId);
}
