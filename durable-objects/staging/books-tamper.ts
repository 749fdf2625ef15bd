/**
 * Staging-only corruption of one kind of ledger write, for the tests that show each write-path
 * assertion of durable-objects/ledger/ledger/books-guard.ts aborting its transaction. Armed through
 * the staging entry's ClientLedger (./client-ledger.ts) until disarmed; counts the writes it spoiled.
 */
import type { InvariantRule } from '../../src/domain/money-invariants';
import type { BooksTamper } from '../ledger/ledger/books-guard';

export type TamperedRule = Exclude<InvariantRule, 'overdraft'>;

export class BooksTampering implements BooksTamper {
  fired = 0;

  constructor(private readonly rule: TamperedRule) {}

  entry(moved: { amount: number; balanceAfter: number }): void {
    if (this.rule !== 'balance-chain') return;
    moved.balanceAfter += 1;
    this.fired++;
  }

  hold(hold: { amount: number; available: number }): void {
    if (this.rule === 'hold') hold.amount += 1;
    else if (this.rule === 'reservation') hold.available = -1;
    else return;
    this.fired++;
  }

  suspenseDebit(debit: { amount: number }): void {
    if (this.rule !== 'suspense') return;
    debit.amount *= 2;
    this.fired++;
  }
}
