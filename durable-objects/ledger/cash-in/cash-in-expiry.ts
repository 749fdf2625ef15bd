/**
 * The end of a Cash-In's payment window, as the task sees it after the late-settlement grace. A
 * real partner's charge is asked about first (`GET /cob/{txid}`, which lists the Pix that paid it):
 * a payment the PSP holds is booked as PAID, and a PSP that cannot answer leaves the charge
 * AWAITING_PAYMENT, asked again later with growing delays. Expiring without that answer would turn
 * away a payer who paid in time (the callback then answers `not-payable`).
 */
import { errorFields, log } from '../../../src/infra/log';
import { bcbPartner } from '../../../src/partners/port-registry';
import type { LedgerContext } from '../ledger-context';
import { expireCashIn, LATE_SETTLEMENT_GRACE_MS } from './cash-in-ops';
import { type CashInRow, findCashIn } from './cash-in-store';
import { applyPartnerPix } from './partner-pix-ops';
import type { PartnerReads } from './partner-reads';

/** First delay before asking a partner again about an expiring charge, and the longest. */
export const EXPIRY_RETRY_MIN_MS = 30_000;
export const EXPIRY_RETRY_MAX_MS = 5 * 60_000;

/** Half the time the answer has been missing, within [30 s, 5 min]: an outage is asked about less often as it lasts. */
export function expiryRetryDelay(waitingMs: number): number {
  return Math.min(EXPIRY_RETRY_MAX_MS, Math.max(EXPIRY_RETRY_MIN_MS, Math.round(waitingMs / 2)));
}

type ChargeAnswer = 'paid' | 'unpaid' | 'unknown';

/** Whether the partner holds a payment of this charge; any Pix it lists is applied (once, by end-to-end id). */
async function askPartner(ledger: LedgerContext, row: CashInRow, reads: PartnerReads): Promise<ChargeAnswer> {
  const partner = bcbPartner(ledger.env, row.partnerIspb);
  if (!partner) return 'unpaid'; // the sandbox holds no charge of its own
  if (reads.isDown(row.partnerIspb)) return 'unknown';
  const fields = { transactionId: row.transactionId, ispb: row.partnerIspb };
  let charge: Awaited<ReturnType<typeof partner.chargeStatus>>;
  try {
    charge = await partner.chargeStatus(row.transactionId);
  } catch (error) {
    charge = { ok: false, failureCode: 'PROVIDER_UNAVAILABLE', retryable: true };
    log('warn', 'charge read before expiry failed', { ...fields, ...errorFields(error) });
  }
  if (!charge.ok) {
    // NaoEncontrado: the PSP never had the charge, so nobody could pay it. Anything else is no answer.
    if (!charge.retryable && charge.failureCode === 'PROCESSING_ERROR') return 'unpaid';
    if (charge.retryable) reads.markDown(row.partnerIspb);
    log(
      charge.retryable ? 'warn' : 'error',
      'the partner could not say whether an expiring charge was paid',
      {
        ...fields,
        failureCode: charge.failureCode,
      },
    );
    return 'unknown';
  }
  if (charge.value.pix.length > 0) {
    const rules = await reads.payerRules(ledger);
    for (const pix of charge.value.pix) await applyPartnerPix(ledger, row.partnerIspb, pix, rules);
    if (findCashIn(ledger.db, row.transactionId)?.status !== 'AWAITING_PAYMENT') return 'paid';
    return 'unpaid'; // a Pix the charge cannot take (another amount): applyPartnerPix logged it
  }
  // Concluded without the Pix that concluded it: the PSP's own list is not consistent yet.
  return charge.value.status === 'CONCLUIDA' ? 'unknown' : 'unpaid';
}

/** Expires the Cash-In once its partner confirms it unpaid; when to run again (undefined: done). */
export async function expireUnlessPaid(
  ledger: LedgerContext,
  id: string,
  reads: PartnerReads,
): Promise<number | undefined> {
  const row = findCashIn(ledger.db, id);
  if (row?.status !== 'AWAITING_PAYMENT') return undefined;
  const due = row.expiresAt + LATE_SETTLEMENT_GRACE_MS;
  if (Date.now() < due) return due;
  const answer = await askPartner(ledger, row, reads);
  const now = Date.now();
  if (answer === 'unknown') return now + expiryRetryDelay(now - due);
  if (answer === 'unpaid') expireCashIn(ledger, id, false);
  return undefined;
}
