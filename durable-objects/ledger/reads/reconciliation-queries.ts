/**
 * This client's side of a partner's day for the daily reconciliation (src/cron/reconcile-day.ts):
 * the Pix received, the payouts sent, the devolutions of those Pix, and what the books hold at the
 * partner now with what of it is already on its way out. Every read walks an index by account and time or by end-to-end id, so its cost is
 * the day's items, never the client's history.
 */
import type { Item } from '../../../src/domain/reconciliation-matching';
import { findCashIn, paidCashInAt } from '../cash-in/cash-in-store';
import {
  receiptAt,
  receiptsHeldBetween,
  returnsSentAt,
  suspenseHeld,
  suspenseReturnedOf,
} from '../cash-in/unapplied-store';
import { cashOutsAskedAt } from '../cash-out/cash-out-store';
import { accountsAtPartner, pixEntriesBetween, refundedOutOf, refundHoldsAt } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';

export interface BooksOfDay {
  received: Item[];
  devolutions: Item[];
  payouts: Item[];
}

/** What this client's books hold at one partner now (the reconciliation's balance check). */
export interface HeldAtPartner {
  /** Centavos: the client's accounts there and its suspense account. */
  balance: number;
  /**
   * Of `balance`, the centavos already asked of the partner and not settled yet: a bank debits a
   * payout or a devolution when it takes it, while our books keep the money until it settles.
   */
  inFlightOut: number;
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
  return { received, devolutions, payouts };
}

export function heldAtPartner(ledger: LedgerContext, ispb: string): HeldAtPartner {
  const accounts = accountsAtPartner(ledger.db, ispb);
  const balance = accounts.reduce((sum, a) => sum + a.balance, 0) + suspenseHeld(ledger.db, ispb);
  return { balance, inFlightOut: inFlightOut(ledger, ispb) };
}

/**
 * What left for the partner and has not settled: Cash-Outs asked (SENDING, SENT), refunds held and
 * sent (PROCESSING; one still waiting for its payment's endToEndId was never sent, refund-ops.ts),
 * returns of unapplied receipts the partner took (SENT).
 */
function inFlightOut(ledger: LedgerContext, ispb: string): number {
  let refunds = 0;
  for (const hold of refundHoldsAt(ledger.db, ispb))
    if (findCashIn(ledger.db, hold.transactionId)?.endToEndId) refunds += hold.amount;
  return cashOutsAskedAt(ledger.db, ispb) + refunds + returnsSentAt(ledger.db, ispb);
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
