/**
 * When a real partner's paid Cash-In is read again for bank returns (durable-objects/ledger/
 * return-rechecks.ts): 1, 2, 4, 8 … minutes after the payment, each read twice as far from it as
 * the one before, and once more at the end of the window a bank has to return it. About 18 reads
 * over 90 days, most in the first days, when returns are most likely.
 */

/** The first re-read, this long after the payment. */
export const RECHECK_FIRST_MS = 60_000;
/** A MED claim may be opened up to 80 days after the payment, its devolution settled by 90. */
export const MED_WINDOW_MS = 90 * 86_400_000;

/** The next re-read of a payment made at `paidAt`, read (or paid) at `now`; undefined past the window. */
export function nextRecheckAt(paidAt: number, now: number): number | undefined {
  const end = paidAt + MED_WINDOW_MS;
  if (now >= end) return undefined;
  return Math.min(end, paidAt + Math.max(RECHECK_FIRST_MS, 2 * (now - paidAt)));
}
