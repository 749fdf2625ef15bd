/**
 * The client's double-entry side at its settlement partners: immutable entries with balanceAfter,
 * holds for money in flight, and balances derived from both. Every function here runs inside the
 * caller's storage transaction.
 */

import { and, desc, eq, sql } from 'drizzle-orm';
import { BANK_RETURN_LABEL } from '../../src/domain/statement';
import type { LedgerDb } from './db';
import { prepared } from './prepared';
import { accounts, archiveSegments, holds, ledgerEntries } from './schema';

export type EntryType =
  | 'PIX_IN'
  | 'PIX_OUT'
  | 'PIX_REFUND_IN'
  | 'PIX_REFUND_OUT'
  | 'TRANSFER_IN'
  | 'TRANSFER_OUT';

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

export interface EntryInput {
  accountNumber: string;
  type: EntryType;
  amount: number;
  ref: string;
  at: number;
  /** A money fact reported by the bank: recorded even if it takes the balance below zero. */
  bankFact?: boolean;
  description?: string | null;
  endToEndId?: string | null;
  originalEndToEndId?: string | null;
  /** A fixed id makes the entry once-only: bank facts that may be reported twice carry one. */
  id?: string;
}

export type AccountRow = typeof accounts.$inferSelect;

/** The client's TRANSACTIONAL accounts in onboarding order (its partners' order). */
export function transactionalAccounts(db: LedgerDb): AccountRow[] {
  return prepared(db, 'accounts.transactional', () =>
    db.select().from(accounts).where(eq(accounts.type, 'TRANSACTIONAL')).orderBy(sql`rowid`).prepare(),
  ).all();
}

/** The client's first partner (onboarding order), or undefined before onboarding. */
export function firstPartnerIspb(db: LedgerDb): string | undefined {
  return prepared(db, 'accounts.first', () =>
    db.select({ ispb: accounts.ispb }).from(accounts).orderBy(sql`rowid`).limit(1).prepare(),
  ).get()?.ispb;
}

/** One entry by its id (a posting's result as the statement shows it). */
export function entryById(db: LedgerDb, id: string) {
  return db.select().from(ledgerEntries).where(eq(ledgerEntries.id, id)).get();
}

export function account(db: LedgerDb, number: string): AccountRow | undefined {
  return db.select().from(accounts).where(eq(accounts.number, number)).get();
}

export function accountAt(
  db: LedgerDb,
  ispb: string,
  type: 'TRANSACTIONAL' | 'PROPRIETARY',
): AccountRow | undefined {
  return db
    .select()
    .from(accounts)
    .where(and(eq(accounts.ispb, ispb), eq(accounts.type, type)))
    .get();
}

export function heldAmount(db: LedgerDb, accountNumber: string): number {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${holds.amount}), 0)` })
    .from(holds)
    .where(eq(holds.accountNumber, accountNumber))
    .get();
  return row?.total ?? 0;
}

/** Balance minus money already promised to operations in flight. */
export function available(db: LedgerDb, accountNumber: string): number {
  return (account(db, accountNumber)?.balance ?? 0) - heldAmount(db, accountNumber);
}

/** Time of the account's latest entry, hot or archived (its statement order is (created_at, seq)). */
function lastEntryAt(db: LedgerDb, accountNumber: string): number | undefined {
  const hot = db
    .select({ at: ledgerEntries.createdAt })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.accountNumber, accountNumber))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.seq))
    .limit(1)
    .get()?.at;
  // Archived entries (archive_segments_last_idx): when every entry went, the next still follows them.
  const archived = db
    .select({ at: sql<number | null>`max(${archiveSegments.lastTime})` })
    .from(archiveSegments)
    .where(eq(archiveSegments.kind, `ledger:${accountNumber}`))
    .get()?.at;
  return archived == null ? hot : Math.max(hot ?? archived, archived);
}

/**
 * Appends one entry and moves the account balance with it. Our own operations never take a balance
 * below zero (they check `available` first, and this refuses them if they did not); a fact the bank
 * reports (`bankFact`) is recorded anyway: the balance then goes negative, visibly.
 * An entry never predates the account's previous one (an operation that read the clock before
 * awaiting a partner may post after a later one): the statement order (date, seq) is then the
 * posting order, so every balanceAfter follows from the one before it.
 */
export function postEntry(db: LedgerDb, input: EntryInput): { id: string; balanceAfter: number } {
  const acc = account(db, input.accountNumber);
  if (!acc) throw new Error(`unknown account ${input.accountNumber}`);
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw new Error('entry amount must be positive');
  const direction = DIRECTION[input.type];
  const balanceAfter = direction === 'CREDIT' ? acc.balance + input.amount : acc.balance - input.amount;
  // Only our own debits are refused below zero: a credit always helps, whatever the balance was.
  if (direction === 'DEBIT' && balanceAfter < 0 && !input.bankFact)
    throw new Error(`entry would overdraw account ${input.accountNumber}`);
  // Amounts are capped (decisions §5) so this never happens in practice; if it did, a balance
  // past 2^53 centavos would silently round, so the entry is refused instead.
  if (!Number.isSafeInteger(balanceAfter))
    throw new Error(`entry would take account ${input.accountNumber} past an exact integer of centavos`);
  const id = input.id ?? `ENT${crypto.randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()}`;
  db.insert(ledgerEntries)
    .values({
      id,
      accountNumber: input.accountNumber,
      type: input.type,
      typeRaw: input.bankFact ? BANK_RETURN_LABEL : RAW_LABEL[input.type],
      direction,
      amount: input.amount,
      balanceAfter,
      description: input.description ?? null,
      endToEndId: input.endToEndId ?? null,
      originalEndToEndId: input.originalEndToEndId ?? null,
      ref: input.ref,
      createdAt: Math.max(input.at, lastEntryAt(db, input.accountNumber) ?? input.at),
    })
    .run();
  db.update(accounts).set({ balance: balanceAfter }).where(eq(accounts.number, input.accountNumber)).run();
  return { id, balanceAfter };
}

export function entryExists(db: LedgerDb, id: string): boolean {
  return (
    db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.id, id)).get() !==
    undefined
  );
}

/**
 * The once-only id of a devolution's entry, from the payment it returns and the devolution's id at
 * the partner (the statement's `ENT` + 24 hex form): a devolution reported again finds its entry.
 */
export async function devolutionEntryId(originalEndToEndId: string, devolutionId: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`${originalEndToEndId}:${devolutionId}`),
  );
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `ENT${hex.slice(0, 24).toUpperCase()}`;
}

export function placeHold(
  db: LedgerDb,
  hold: { id: string; accountNumber: string; amount: number; ref: string; at: number },
) {
  db.insert(holds)
    .values({
      id: hold.id,
      accountNumber: hold.accountNumber,
      amount: hold.amount,
      ref: hold.ref,
      createdAt: hold.at,
    })
    .run();
}

export function findHold(db: LedgerDb, id: string) {
  return db.select().from(holds).where(eq(holds.id, id)).get();
}

export function releaseHold(db: LedgerDb, id: string): void {
  db.delete(holds).where(eq(holds.id, id)).run();
}
