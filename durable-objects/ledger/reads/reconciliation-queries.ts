/**
 * This client's side of a partner's day for the daily reconciliation (src/cron/reconcile-day.ts):
 * the Pix received, the payouts sent, the devolutions of those Pix, and what the books hold at the
 * partner now. Every read walks an index by account and time or by end-to-end id, so its cost is
 * the day's items, never the client's history.
 */
import type { Item } from '../../../src/domain/reconciliation-matching';
import { paidCashInAt } from '../cash-in/cash-in-store';
import { receiptAt, receiptsHeldBetween, suspenseHeld, suspenseReturnedOf } from '../cash-in/unapplied-store';
import { accountsAtPartner, pixEntriesBetween, refundedOutOf } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';

export interface BooksOfDay {
  received: Item[];
  devolutions: Item[];
  payouts: Item[];
  /** Centavos at the partner now: the client's accounts there and its suspense account. */
  balance: number;
}

const refId = (ref: string) => ref.slice(ref.indexOf(':') + 1);

/** Centavos devolved of one payment: our devolution entries and suspense returns. */
export function devolvedOf(ledger: LedgerContext, endToEndId: string): number {
  return refundedOutOf(ledger.db, endToEndId) + suspenseReturnedOf(ledger.db, endToEndId);
}

export function booksOfDay(ledger: LedgerContext, ispb: string, from: number, to: number): BooksOfDay {
  const accounts = accountsAtPartner(ledger.db, ispb);
  const received: Item[] = [];
  const payouts: Item[] = [];
  for (const account of accounts) {
    const entries = pixEntriesBetween(ledger.db, account.number, from, to);
    for (const e of entries) {
      if (e.end_to_end_id === null) continue;
      const item = {
        key: e.end_to_end_id,
        endToEndId: e.end_to_end_id,
        transactionId: refId(e.ref),
        amount: e.amount,
        status: 'SETTLED' as const,
        at: e.created_at,
      };
      if (e.type === 'PIX_IN') received.push({ ...item, subject: 'RECEIVED' });
      else payouts.push({ ...item, key: refId(e.ref).replace(/-/g, ''), subject: 'PAYOUT' });
    }
  }
  const held = receiptsHeldBetween(ledger.db, ispb, from, to);
  for (const h of held)
    received.push({
      subject: 'RECEIVED',
      key: h.end_to_end_id,
      endToEndId: h.end_to_end_id,
      ...(h.txid !== null && { transactionId: h.txid }),
      amount: h.amount,
      status: 'SETTLED',
      at: h.created_at,
    });
  const devolutions: Item[] = [];
  for (const r of received) {
    const amount = devolvedOf(ledger, r.key);
    if (amount > 0) devolutions.push({ ...r, subject: 'DEVOLUTION', amount });
  }
  const balance = accounts.reduce((sum, a) => sum + a.balance, 0) + suspenseHeld(ledger.db, ispb);
  return { received, devolutions, payouts, balance };
}

/** A payment of this client's found by its end-to-end id, whenever it was booked, with what was devolved of it. */
export function bookedPix(
  ledger: LedgerContext,
  ispb: string,
  endToEndId: string,
): { received: Item; devolved: number } | undefined {
  const row = paidCashInAt(ledger.db, ispb, endToEndId) ?? receiptAt(ledger.db, ispb, endToEndId);
  if (!row) return undefined;
  return {
    received: {
      subject: 'RECEIVED',
      key: endToEndId,
      endToEndId,
      ...(row.id !== null && { transactionId: row.id }),
      amount: row.amount,
      status: 'SETTLED',
    },
    devolved: devolvedOf(ledger, endToEndId),
  };
}
