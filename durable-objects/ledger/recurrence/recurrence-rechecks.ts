/**
 * A real partner's Pix Automático facts read again on our own schedule, so nothing waits on its
 * `rec` and `cobr` callbacks arriving (docs/operating.md, Pix Automático on a real partner): a
 * recurrence waiting for the payer is read (`GET /rec/{idRec}`) with thinning delays until the
 * payer answers or its deadline passes; a cycle's charge is read (`GET /cobr/{txid}`) after each
 * window in which the payer's bank should have attempted it (08:00 and 21:00 in São Paulo on the
 * settlement date and on each retry day), then every half hour until it ends. What the partner
 * answers goes through the same operations as its callbacks (recurrence-partner-ops.ts), which
 * record each fact once, so a callback arriving late finds it recorded.
 */
import {
  CHARGE_LATE_RECHECK_MS,
  chargeRecheckAt,
  lastAttemptDay,
  recurrenceRecheckAt,
} from '../../../src/domain/recurrence';
import { errorFields, log } from '../../../src/infra/log';
import type { RecurringChargeAtPartner } from '../../../src/partners/port';
import { bcbPartner } from '../../../src/partners/port-registry';
import { findCashIn } from '../cash-in/cash-in-store';
import { applyPartnerPix } from '../cash-in/partner-pix-ops';
import type { PartnerReads } from '../cash-in/partner-reads';
import type { LedgerContext } from '../ledger-context';
import { expireRecurrence } from './recurrence-ops';
import { applyPartnerCharge, applyPartnerRecurrence } from './recurrence-partner-ops';
import { chargeOfTransaction, findRecurrence } from './recurrence-store';

/** A partner that did not answer is asked again this much later. */
const PARTNER_DOWN_MS = 60_000;

/** Reads a waiting recurrence at its partner and applies the answer: still waiting, answered, or unread. */
async function readRecurrence(
  ledger: LedgerContext,
  recurrenceId: string,
  reads: PartnerReads,
): Promise<'waiting' | 'answered' | 'unread'> {
  const row = findRecurrence(ledger.db, recurrenceId);
  if (row?.status !== 'WAITING_AUTHORIZATION') return 'answered';
  const recurrences = bcbPartner(ledger.env, row.partnerIspb)?.recurrences;
  if (!recurrences) return 'waiting';
  if (reads.isDown(row.partnerIspb)) return 'unread';
  const fields = { recurrenceId, ispb: row.partnerIspb };
  let read: Awaited<ReturnType<typeof recurrences.recurrence>>;
  try {
    read = await recurrences.recurrence(row.recurrenceId);
  } catch (error) {
    read = { ok: false, failureCode: 'PROVIDER_UNAVAILABLE', retryable: true };
    log('warn', 'a waiting recurrence could not be read again', { ...fields, ...errorFields(error) });
  }
  if (!read.ok) {
    if (read.retryable) reads.markDown(row.partnerIspb);
    else
      log('error', 'the partner does not know a recurrence of ours', {
        ...fields,
        failureCode: read.failureCode,
      });
    return 'unread';
  }
  applyPartnerRecurrence(ledger, read.value);
  return findRecurrence(ledger.db, recurrenceId)?.status === 'WAITING_AUTHORIZATION' ? 'waiting' : 'answered';
}

/** The `recheck-recurrence` task: when to run again (undefined: the recurrence no longer waits). */
export async function recheckRecurrence(
  ledger: LedgerContext,
  recurrenceId: string,
  reads: PartnerReads,
): Promise<number | undefined> {
  const row = findRecurrence(ledger.db, recurrenceId);
  if (!row || !bcbPartner(ledger.env, row.partnerIspb)?.recurrences) return undefined;
  const read = await readRecurrence(ledger, recurrenceId, reads);
  const now = Date.now();
  if (read === 'answered') return undefined;
  if (read === 'unread') return now + PARTNER_DOWN_MS;
  return now >= row.authorizationExpiresAt
    ? undefined
    : recurrenceRecheckAt(row.createdAt, row.authorizationExpiresAt, now);
}

/**
 * The `expire-recurrence` task: at a real partner the payer may have answered with the callback
 * lost, so the partner is asked first and a recurrence it still has waiting ends EXPIRED; one it
 * could not be asked about is asked again later. When to run again (undefined: done).
 */
export async function expireUnlessAnswered(
  ledger: LedgerContext,
  recurrenceId: string,
  reads: PartnerReads,
): Promise<number | undefined> {
  const read = await readRecurrence(ledger, recurrenceId, reads);
  if (read === 'unread') return Date.now() + PARTNER_DOWN_MS;
  if (read === 'waiting') expireRecurrence(ledger, recurrenceId);
  return undefined;
}

/**
 * A real partner's cycle charge is not expired on `GET /cob` (it is a `cobr`): its end is what the
 * partner says of the `cobr`, read by its own task, which the expiry hands it to.
 */
export function isPartnerRecurringCharge(ledger: LedgerContext, transactionId: string): boolean {
  const row = findCashIn(ledger.db, transactionId);
  return (
    row !== undefined &&
    chargeOfTransaction(ledger.db, transactionId) !== undefined &&
    bcbPartner(ledger.env, row.partnerIspb)?.recurrences !== undefined
  );
}

/**
 * The `recheck-recurring-charge` task: the charge as the partner has it, its paying Pix booked as
 * every Pix is (once by end-to-end id), then its attempts and outcome; when to run again
 * (undefined: the Cash-In has ended).
 */
export async function recheckRecurringCharge(
  ledger: LedgerContext,
  transactionId: string,
  reads: PartnerReads,
): Promise<number | undefined> {
  const row = findCashIn(ledger.db, transactionId);
  const link = row && chargeOfTransaction(ledger.db, transactionId);
  if (row?.status !== 'AWAITING_PAYMENT' || !link) return undefined;
  const partner = bcbPartner(ledger.env, row.partnerIspb);
  if (!partner?.recurrences) return undefined;
  const now = Date.now();
  if (reads.isDown(row.partnerIspb)) return now + PARTNER_DOWN_MS;
  const fields = { transactionId, ispb: row.partnerIspb };
  let fact: RecurringChargeAtPartner;
  try {
    const read = await partner.recurrences.recurringCharge(transactionId);
    if (!read.ok) {
      if (read.retryable) reads.markDown(row.partnerIspb);
      else
        log('error', 'the partner does not know a recurring charge of ours', {
          ...fields,
          failureCode: read.failureCode,
        });
      return now + (read.retryable ? PARTNER_DOWN_MS : CHARGE_LATE_RECHECK_MS);
    }
    fact = read.value;
    for (const endToEndId of fact.paidBy) {
      const pix = await partner.receivedPix(endToEndId);
      if (!pix.ok || pix.value?.endToEndId !== endToEndId) return now + PARTNER_DOWN_MS;
      await applyPartnerPix(ledger, row.partnerIspb, pix.value, await reads.payerRules(ledger));
    }
  } catch (error) {
    reads.markDown(row.partnerIspb);
    log('warn', 'a recurring charge could not be read again', { ...fields, ...errorFields(error) });
    return now + PARTNER_DOWN_MS;
  }
  const applied = await applyPartnerCharge(ledger, fact);
  if (!applied.ok) log('error', 'a recurring charge read again could not be applied', fields);
  if (findCashIn(ledger.db, transactionId)?.status !== 'AWAITING_PAYMENT') return undefined;
  const retryPolicy = findRecurrence(ledger.db, link.recurrenceId)?.retryPolicy ?? 'THREE_IN_SEVEN_DAYS';
  return chargeRecheckAt(link.dueDate, lastAttemptDay(link.dueDate, retryPolicy), now);
}
