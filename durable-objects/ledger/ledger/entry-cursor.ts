/**
 * Appends chained entries to one account inside the caller's storage transaction. It reads the
 * account's balance and its latest entry's time once, then chains each entry's balanceAfter and
 * time in memory: a batch of N entries costs N inserts and one balance write, not N re-reads.
 * Only one cursor per account may be open in a transaction (nothing else may post to it meanwhile).
 */
import { entryViolation } from '../../../src/domain/money-invariants';
import { BANK_RETURN_LABEL } from '../../../src/domain/statement';
import { type LedgerDb, sqlOf } from '../db';
import { type BooksTamper, booksTamper, guard } from './books-guard';
import { cursorSql, type EntryValues } from './ledger-store';

export type EntryType =
  | 'PIX_IN'
  | 'PIX_OUT'
  | 'PIX_REFUND_IN'
  | 'PIX_REFUND_OUT'
  | 'TRANSFER_IN'
  | 'TRANSFER_OUT';

export interface EntryInput {
  accountNumber: string;
  type: EntryType;
  amount: number;
  ref: string;
  at: number;
  /** A money fact reported by the bank: recorded even if it takes the balance below zero. */
  bankFact?: boolean;
  /**
   * Our own debit the partner reports settled (a devolution, a payment): the money has left, so it
   * is recorded whatever the balance. It was held when we asked; only a bank fact booked since (a
   * return) can have left the balance short of it.
   */
  settled?: boolean;
  description?: string | null;
  endToEndId?: string | null;
  originalEndToEndId?: string | null;
  /** A fixed id makes the entry once-only: bank facts that may be reported twice carry one. */
  id?: string;
}

const DIRECTION: Record<EntryType, 'CREDIT' | 'DEBIT'> = {
  PIX_IN: 'CREDIT',
  PIX_REFUND_IN: 'CREDIT',
  TRANSFER_IN: 'CREDIT',
  PIX_OUT: 'DEBIT',
  PIX_REFUND_OUT: 'DEBIT',
  TRANSFER_OUT: 'DEBIT',
};

/** The partner's own labels, kept as `typeRaw` the way a real statement carries them. */
const RAW_LABEL: Record<EntryType, string> = {
  PIX_IN: 'PIX RECEBIDO',
  PIX_OUT: 'PIX ENVIADO',
  PIX_REFUND_IN: 'DEVOLUCAO PIX RECEBIDA',
  PIX_REFUND_OUT: 'DEVOLUCAO PIX ENVIADA',
  TRANSFER_IN: 'TRANSFERENCIA RECEBIDA',
  TRANSFER_OUT: 'TRANSFERENCIA ENVIADA',
};

export const newEntryId = () => `ENT${crypto.randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()}`;

export type CursorEntry = Omit<EntryInput, 'accountNumber'>;

export class EntryCursor {
  private readonly sql: SqlStorage;
  private readonly tamper: BooksTamper | undefined;
  private balance: number;
  private lastAt: number | undefined;
  private moved = false;
  /** Entries appended but not yet inserted: a batched cursor inserts them all in `close`. */
  private pending: EntryValues[] | undefined;

  /**
   * `batched`: the entries are inserted in one statement at `close` (the caller reads none of this
   * account's entries before then, in the same transaction).
   */
  constructor(
    db: LedgerDb,
    readonly accountNumber: string,
    batched = false,
  ) {
    if (batched) this.pending = [];
    this.sql = sqlOf(db);
    this.tamper = booksTamper(db);
    const account = cursorSql.balance(this.sql, accountNumber);
    if (!account) throw new Error(`unknown account ${accountNumber}`);
    this.balance = account.balance;
    // The latest entry, hot or archived (archive_segments_last_idx): when every entry went to R2,
    // the next one still follows them in the statement order (created_at, seq).
    const last = cursorSql.lastTimes(this.sql, accountNumber);
    this.lastAt =
      last.hot === null ? (last.archived ?? undefined) : Math.max(last.hot, last.archived ?? last.hot);
  }

  /**
   * Why this entry would be refused, or undefined. Our own operations never take a balance below
   * zero; a fact the bank reports (`bankFact`, `settled`) is recorded anyway. A balance past 2^53 centavos
   * would silently round, so such an entry is refused too (amounts are capped: docs/contract.md, Amounts and
   * documents).
   */
  refusal(input: CursorEntry): string | undefined {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) return 'entry amount must be positive';
    const after = this.after(input);
    if (DIRECTION[input.type] === 'DEBIT' && after < 0 && !input.bankFact && !input.settled)
      return `entry would overdraw account ${this.accountNumber}`;
    if (!Number.isSafeInteger(after))
      return `entry would take account ${this.accountNumber} past an exact integer of centavos`;
    return undefined;
  }

  private after(input: CursorEntry): number {
    return DIRECTION[input.type] === 'CREDIT' ? this.balance + input.amount : this.balance - input.amount;
  }

  /**
   * Appends one entry. It never predates the account's previous one (an operation that read the
   * clock before awaiting a partner may post after a later one): the statement order (date, seq)
   * is then the posting order, so every balanceAfter follows from the one before it.
   */
  append(input: CursorEntry): { id: string; balanceAfter: number } {
    const refused = this.refusal(input);
    if (refused) throw new Error(refused);
    const moved = { amount: input.amount, balanceAfter: this.after(input) };
    this.tamper?.entry?.(moved);
    const { amount, balanceAfter } = moved;
    const createdAt = Math.max(input.at, this.lastAt ?? input.at);
    const id = input.id ?? newEntryId();
    const direction = DIRECTION[input.type];
    // The balance chain, on the values about to be written (money-invariants.ts).
    guard(entryViolation(this.balance, { id, account: this.accountNumber, direction, amount, balanceAfter }));
    const values: EntryValues = [
      id,
      this.accountNumber,
      input.type,
      input.bankFact ? BANK_RETURN_LABEL : RAW_LABEL[input.type],
      direction,
      amount,
      balanceAfter,
      input.description ?? null,
      input.endToEndId ?? null,
      input.originalEndToEndId ?? null,
      input.ref,
      createdAt,
    ];
    if (this.pending) this.pending.push(values);
    else cursorSql.insert(this.sql, ...values);
    this.balance = balanceAfter;
    this.lastAt = createdAt;
    this.moved = true;
    return { id, balanceAfter };
  }

  /** Writes the account's balance (once, after the last entry), in the same transaction. */
  close(): void {
    if (this.pending && this.pending.length > 0) {
      cursorSql.insertMany(this.sql, this.pending);
      this.pending = [];
    }
    if (this.moved) cursorSql.setBalance(this.sql, this.accountNumber, this.balance);
    this.moved = false;
  }
}
