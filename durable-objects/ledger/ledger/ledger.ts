/**
 * The client's double-entry side at its settlement partners: immutable entries with balanceAfter,
 * holds for money in flight, and balances derived from both. Every function here runs inside the
 * caller's storage transaction.
 */

import { and, eq, sql } from 'drizzle-orm';
import type { LedgerDb } from '../db';
import { prepared } from '../prepared';
import { accounts, holds, ledgerEntries } from '../schema';
import { EntryCursor, type EntryInput } from './entry-cursor';

export type { EntryInput, EntryType } from './entry-cursor';

export type AccountRow = typeof accounts.$inferSelect;

/** Onboarding (idempotent): opens one of the client's accounts at a partner; an open one stays. */
export function openAccount(db: LedgerDb, account: typeof accounts.$inferInsert): void {
  db.insert(accounts).values(account).onConflictDoNothing().run();
}

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

/**
 * Appends one entry and moves the account balance with it (entry-cursor.ts holds the rules: no
 * overdraft by our own operations, bank facts recorded anyway, entries never out of order).
 */
export function postEntry(db: LedgerDb, input: EntryInput): { id: string; balanceAfter: number } {
  const cursor = new EntryCursor(db, input.accountNumber);
  const posted = cursor.append(input);
  cursor.close();
  return posted;
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
