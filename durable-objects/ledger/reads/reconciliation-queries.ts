/**
 * This client's side of a partner's day for the daily reconciliation (src/cron/reconciliation.ts):
 * the Pix received, the payouts sent, the devolutions of those Pix, and what the books hold at the
 * partner now. Every read walks an index by account and time or by end-to-end id, so its cost is
 * the day's items, never the client's history.
 */
import type { Item } from '../../../src/domain/reconciliation';
import { suspenseHeld } from '../cash-in/unapplied-ops';
import type { LedgerContext } from '../context';
import { sqlOf } from '../db';

export interface BooksOfDay {
  received: Item[];
  devolutions: Item[];
  payouts: Item[];
  /** Centavos at the partner now: the client's accounts there and its suspense account. */
  balance: number;
}

const refId = (ref: string) => ref.slice(ref.indexOf(':') + 1);

/** Centavos devolved of one payment: our devolution entries and suspense returns. */
export function devolvedOf(ctx: LedgerContext, endToEndId: string): number {
  const row = sqlOf(ctx.db)
    .exec<{ total: number }>(
      `SELECT (SELECT coalesce(sum(amount), 0) FROM ledger_entries
               WHERE original_end_to_end_id = ?1 AND type = 'PIX_REFUND_OUT')
            + (SELECT coalesce(sum(amount), 0) FROM suspense_entries
               WHERE original_end_to_end_id = ?1 AND direction = 'DEBIT') AS total`,
      endToEndId,
    )
    .one();
  return row.total;
}

export function booksOfDay(ctx: LedgerContext, ispb: string, from: number, to: number): BooksOfDay {
  const sql = sqlOf(ctx.db);
  const accounts = sql
    .exec<{ number: string; balance: number }>('SELECT number, balance FROM accounts WHERE ispb = ?', ispb)
    .toArray();
  const received: Item[] = [];
  const payouts: Item[] = [];
  for (const account of accounts) {
    const entries = sql.exec<{
      type: string;
      amount: number;
      end_to_end_id: string | null;
      ref: string;
      created_at: number;
    }>(
      `SELECT type, amount, end_to_end_id, ref, created_at FROM ledger_entries
       WHERE account_number = ? AND created_at >= ? AND created_at < ? AND type IN ('PIX_IN', 'PIX_OUT')`,
      account.number,
      from,
      to,
    );
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
  const held = sql.exec<{ end_to_end_id: string; amount: number; txid: string | null; created_at: number }>(
    `SELECT s.end_to_end_id, s.amount, r.txid, s.created_at FROM suspense_entries s
     JOIN unapplied_receipts r ON r.end_to_end_id = s.end_to_end_id
     WHERE s.ispb = ? AND s.created_at >= ? AND s.created_at < ? AND s.direction = 'CREDIT'`,
    ispb,
    from,
    to,
  );
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
    const amount = devolvedOf(ctx, r.key);
    if (amount > 0) devolutions.push({ ...r, subject: 'DEVOLUTION', amount });
  }
  const balance = accounts.reduce((sum, a) => sum + a.balance, 0) + suspenseHeld(ctx, ispb);
  return { received, devolutions, payouts, balance };
}

/** A payment of this client's found by its end-to-end id, whenever it was booked, with what was devolved of it. */
export function bookedPix(
  ctx: LedgerContext,
  ispb: string,
  endToEndId: string,
): { received: Item; devolved: number } | undefined {
  const sql = sqlOf(ctx.db);
  const row =
    sql
      .exec<{ amount: number; id: string }>(
        `SELECT amount, transaction_id AS id FROM cash_ins
         WHERE end_to_end_id = ? AND partner_ispb = ? AND paid_at IS NOT NULL`,
        endToEndId,
        ispb,
      )
      .toArray()[0] ??
    sql
      .exec<{ amount: number; id: string }>(
        'SELECT amount, txid AS id FROM unapplied_receipts WHERE end_to_end_id = ? AND ispb = ?',
        endToEndId,
        ispb,
      )
      .toArray()[0];
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
    devolved: devolvedOf(ctx, endToEndId),
  };
}
