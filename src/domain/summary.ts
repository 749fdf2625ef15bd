/**
 * Summary bodies (docs/contract.md, Summaries): status buckets (a key only when non-empty) and settlement per
 * bank by amount descending, amounts converted from centavos at this boundary only.
 */
import { amountFromCents } from './money';
import { formatBrt } from './time';

export interface StatusRow {
  status: string;
  count: number;
  amount: number;
}

export interface SettlementRow {
  ispb: string;
  bank: string;
  count: number;
  amount: number;
}

export function summaryBody(
  period: { from: number; to: number },
  rows: StatusRow[],
  settlement: SettlementRow[],
  bucketOf: (status: string) => string,
) {
  const totals: Record<string, { count: number; amount: number }> = {};
  for (const row of rows) {
    const key = bucketOf(row.status);
    const bucket = totals[key] ?? { count: 0, amount: 0 };
    bucket.count += row.count;
    bucket.amount += row.amount;
    totals[key] = bucket;
  }
  return {
    from: formatBrt(period.from),
    to: formatBrt(period.to),
    currency: 'BRL',
    totals: Object.fromEntries(
      Object.entries(totals).map(([k, b]) => [k, { count: b.count, amount: amountFromCents(b.amount) }]),
    ),
    settlement: [...settlement]
      .sort((a, b) => b.amount - a.amount || a.ispb.localeCompare(b.ispb))
      .map((s) => ({ ispb: s.ispb, bank: s.bank, count: s.count, amount: amountFromCents(s.amount) })),
  };
}

/** Cash-In buckets: awaiting payment and expired together under `pending`. */
export function cashInBucket(status: string): string {
  return status === 'AWAITING_PAYMENT' || status === 'EXPIRED' ? 'pending' : status.toLowerCase();
}
