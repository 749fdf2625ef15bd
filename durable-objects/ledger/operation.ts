/**
 * A ClientLedger write operation, declared once: what it needs before it runs and how it runs.
 * ClientLedger's `run()` applies every declaration in one order (docs/architecture.md, "The
 * ledger's operations"):
 *
 * 1. `payerRules`: the client's payer rules, read from D1 (operations that take money in apply
 *    them);
 * 2. `rehydrates`: the archived Cash-In or Cash-Out the operation acts on comes back from R2 first,
 *    so an archived one answers as it did (a 422, never a 404);
 * 3. `sandbox`: a sandbox action touches only a simulated partner's rows; a real partner's answer
 *    like nonexistent ones;
 * 4. `idempotent`: the X-Idempotency-Key's stored answer is replayed, or the operation runs with
 *    `remember` to store its answer in its own transaction;
 * 5. the alarm is armed for the tasks the operation scheduled. Every write arms: arming costs
 *    nothing when nothing was scheduled (Scheduler.arm), so no operation needs an exception.
 */
import type { PayerRules } from '../../src/domain/payer-rules';
import type { OperationResult } from '../../src/domain/result';
import type { IdempotencyKeys, Idempotent, Remember } from './ledger/idempotency';
import type { LedgerContext } from './ledger-context';
import type { SandboxTarget } from './sandbox-scope';

/** What the runner hands an operation besides the ledger and the input. */
export interface Step {
  /** Stores the idempotent answer (a no-op without a key, or for an operation that is not idempotent). */
  remember: Remember;
  /** The client's payer rules (only for an operation that declares `payerRules`). */
  payerRules: PayerRules | undefined;
  /** externalReferences of Cash-Ins being created right now (memory only, docs/contract.md). */
  creatingCashIns: Set<string>;
  /** Recurrence cycles being charged right now (memory only). */
  chargingCycles: Set<string>;
  /** Recurrence externalReferences being created at a real partner right now. */
  creatingRecurrences: Set<string>;
  /** The object's idempotency keys, for an operation that dispatches to several (recurrences). */
  idempotencyKeys: IdempotencyKeys;
}

export interface Operation<I, R> {
  payerRules?: true;
  /** The archived transaction to bring back first, by the id the input names (none: undefined). */
  rehydrates?: { kind: 'cash-in' | 'cash-out'; id: (input: I) => string | undefined };
  /**
   * The row a sandbox action may touch only if a simulated partner's (`when`: only some inputs);
   * refused, the operation answers the row's not-found failure, so R is an OperationResult then.
   */
  sandbox?: {
    target: SandboxTarget;
    id: (input: I) => string;
    when?: (input: I) => boolean;
  };
  /** The input carries X-Idempotency-Key and the request's hash (Idempotent). */
  idempotent?: I extends Idempotent ? true : never;
  apply: (ledger: LedgerContext, input: I, step: Step) => Promise<R> | R;
}

/** Declares an operation taking I (`operation<I>()({ ... })`: I stated, the answer's type inferred). */
export const operation =
  <I>() =>
  <R>(declared: Operation<I, R>): Operation<I, R> =>
    declared;

/** An idempotent operation answers an OperationResult, which the idempotency keys store. */
export type IdempotentResult<R> = R extends OperationResult<infer T> ? OperationResult<T> : never;
