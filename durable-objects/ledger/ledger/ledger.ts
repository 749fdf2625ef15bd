/**
 * The client's accounts at its settlement partners: single-leg immutable entries with balanceAfter,
 * holds for money in flight, and balances derived from both. Every function here runs inside the
 * caller's storage transaction.
 */

import type { LedgerDb } from '../db';
import { EntryCursor, type EntryInput } from './entry-cursor';
import { account, heldAmount } from './ledger-store';

export type { EntryInput, EntryType } from './entry-cursor';
export {
  type AccountRow,
  account,
  accountAt,
  accountsAtPartner,
  blockedAmount,
  entryById,
  entryExists,
  fastHolds,
  findHold,
  firstPartnerIspb,
  firstTransactionalIspb,
  heldAmount,
  openAccount,
  pixEntriesBetween,
  placeHold,
  refundedOutOf,
  refundHoldsAt,
  releaseHold,
  returnedSince,
  transactionalAccounts,
} from './ledger-store';

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
