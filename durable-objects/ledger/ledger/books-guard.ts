/**
 * The money invariants (src/domain/money-invariants.ts) asserted where money moves, the way
 * TigerBeetle asserts in production code: each write checks the rows it writes against what it read
 * (incremental, no extra statement on the Cash-In path), and a violation logs one line and throws,
 * so the caller's storage transaction rolls back and the books stay as they were.
 *
 * The tamper hook lets the staging entry's ledger corrupt one write (durable-objects/staging/
 * books-tamper.ts) so the recovery tests can see each assertion abort; production never sets one.
 */
import type { Violation } from '../../../src/domain/money-invariants';
import { log } from '../../../src/infra/log';
import type { LedgerDb } from '../db';

export class InvariantViolation extends Error {
  constructor(readonly violation: Violation) {
    super(`money invariant violated (${violation.rule}): ${violation.detail}`);
    this.name = 'InvariantViolation';
  }
}

/** Throws (after one log line) when the rule answered a violation. */
export function guard(violation: Violation | undefined): void {
  if (violation === undefined) return;
  log('error', 'money invariant violated', { rule: violation.rule, detail: violation.detail });
  throw new InvariantViolation(violation);
}

/** What a test may corrupt in a write just before its assertion (staging only). */
export interface BooksTamper {
  entry?(moved: { amount: number; balanceAfter: number }): void;
  hold?(hold: { amount: number; available: number }): void;
  suspenseDebit?(debit: { amount: number }): void;
}

const tampers = new WeakMap<LedgerDb, BooksTamper>();

/** The object's tamper hook: none in production. */
export const booksTamper = (db: LedgerDb): BooksTamper | undefined => tampers.get(db);

/** Staging's ledger only (durable-objects/staging/client-ledger.ts). */
export function setBooksTamper(db: LedgerDb, tamper: BooksTamper | undefined): void {
  if (tamper) tampers.set(db, tamper);
  else tampers.delete(db);
}
