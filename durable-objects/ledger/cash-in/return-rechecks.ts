/**
 * Re-reads of a real partner's paid Cash-Ins while a bank can still return them (MED), so a return
 * whose callback was lost is booked all the same. The reconciliation sweep lists Pix by payment
 * time, so a return days later is invisible to it. Each paid Cash-In has one task (`recheck-returns`)
 * (kept once it is REFUNDED: a bank may still return what our refund or its own partial return left,
 * and a bank fact is booked even past the payment's amount)
 * that reads its Pix again (`GET /pix/{e2eid}`) on a schedule that thins out with the payment's age
 * (src/domain/med-recheck.ts): its cost per payment is bounded, never its history. A run makes at
 * most RECHECKS_PER_RUN of them; the rest wait for the next run. The row is read where it is (hot
 * or archived) and brought back hot only to book a return.
 */
import { nextRecheckAt } from '../../../src/domain/med-recheck';
import { errorFields, log } from '../../../src/infra/log';
import { bcbPartner } from '../../../src/partners/port-registry';
import { findCashInAnywhere, rehydrateCashIn } from '../archive/archive-reads';
import type { LedgerContext } from '../ledger-context';
import { devolutionBooked } from './bank-returns';
import { applyPartnerPix } from './partner-pix-ops';
import type { PartnerReads } from './partner-reads';

/** Re-reads per task run: the partner calls of one run stay bounded however many are due. */
export const RECHECKS_PER_RUN = 20;
/** A re-read left over by a full run, or by a partner that did not answer, waits this long. */
const RECHECK_DEFER_MS = 5_000;
const RECHECK_PARTNER_DOWN_MS = 60_000;

/** One re-read of a paid Cash-In; when to read it again (undefined: no longer needed). */
export async function recheckReturns(
  ledger: LedgerContext,
  transactionId: string,
  reads: PartnerReads,
): Promise<number | undefined> {
  const row = await findCashInAnywhere(ledger, transactionId);
  // REFUNDED too: a return of part of the payment, or our refund, leaves the rest returnable.
  if (!row || !['PAID', 'REFUNDED'].includes(row.status) || !row.endToEndId || row.paidAt === null)
    return undefined;
  const partner = bcbPartner(ledger.env, row.partnerIspb);
  if (!partner) return undefined;
  const now = Date.now();
  if (reads.isDown(row.partnerIspb)) return now + RECHECK_PARTNER_DOWN_MS;
  if (reads.rechecks >= RECHECKS_PER_RUN) return now + RECHECK_DEFER_MS;
  reads.rechecks += 1;
  const fields = { transactionId, ispb: row.partnerIspb };
  let read: Awaited<ReturnType<typeof partner.receivedPix>>;
  try {
    read = await partner.receivedPix(row.endToEndId);
  } catch (error) {
    read = { ok: false, failureCode: 'PROVIDER_UNAVAILABLE', retryable: true };
    log('warn', 'a paid Cash-In could not be read again', { ...fields, ...errorFields(error) });
  }
  if (!read.ok) {
    if (read.retryable) {
      reads.markDown(row.partnerIspb);
      return now + RECHECK_PARTNER_DOWN_MS;
    }
    log('error', 'the partner does not know a Pix it paid', { ...fields, failureCode: read.failureCode });
    return nextRecheckAt(row.paidAt, now);
  }
  const pix = read.value;
  if (pix?.endToEndId !== row.endToEndId) return nextRecheckAt(row.paidAt, now);
  const devolved = pix.devolutions.filter((d) => d.status === 'DEVOLVIDO');
  let unbooked = false;
  for (const d of devolved) unbooked ||= !(await devolutionBooked(ledger, row, d.id));
  if (unbooked) {
    // Back hot only to book what is missing: a row read here every time stays archived.
    await rehydrateCashIn(ledger, transactionId);
    const outcomes = await applyPartnerPix(ledger, row.partnerIspb, pix, await reads.payerRules(ledger));
    if (outcomes.some((o) => o === 'returned' || o === 'devolution-recorded'))
      log('warn', 'a bank return found by re-reading the payment (its callback never came)', fields);
  }
  return nextRecheckAt(row.paidAt, now);
}
