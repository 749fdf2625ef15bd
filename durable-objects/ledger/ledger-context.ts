/** What every ClientLedger operation works with: its storage, bindings, clock-free scheduler. */
import type { CrashHook } from './crash-points';
import type { LedgerDb } from './db';
import type { Scheduler } from './scheduler';

export interface Profile {
  clientId: string;
  name: string;
  statementStartDate: string;
  /** BR Code fields 59 and 60 as the operator set them (docs/contract.md, BR Code); absent = defaults. */
  merchantName?: string;
  merchantCity?: string;
}

export interface LedgerContext {
  db: LedgerDb;
  storage: DurableObjectStorage;
  env: Env;
  scheduler: Scheduler;
  profile: Profile;
  /** Crash points (crash-points.ts): armed only by the staging entry's ledger; inert in production. */
  crashes: CrashHook;
}
