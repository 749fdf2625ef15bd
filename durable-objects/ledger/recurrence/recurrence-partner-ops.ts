/**
 * A real partner's Pix Automático facts (docs/contract.md, Pix Automático), as its `rec` and `cobr`
 * callbacks name them and the partner answers them when asked again: the payer's answer or
 * cancellation of a recurrence, each failed attempt of a cycle's charge and its final outcome, and
 * the client's cancellation sent to the partner first. Facts from the bank are recorded, never
 * refused, and each is recorded once: a redelivered callback finds it recorded already.
 */
import { addDays, retryRefusal } from '../../../src/domain/recurrence';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { brtDate } from '../../../src/domain/time';
import { log } from '../../../src/infra/log';
import { isSimulatedPartner } from '../../../src/partners/config';
import type { RecurrenceAtPartner, RecurringChargeAtPartner } from '../../../src/partners/port';
import { partnerPort } from '../../../src/partners/port-registry';
import { cancelCashIn, expireCashIn } from '../cash-in/cash-in-ops';
import { findCashIn } from '../cash-in/cash-in-store';
import type { LedgerContext } from '../ledger-context';
import { recordFailedAttempts } from './recurrence-charge-ops';
import { moveRecurrence, recurrenceNotFound, termsOf } from './recurrence-ops';
import { chargeOfTransaction, findRecurrence } from './recurrence-store';

export type FactOutcome = 'recorded' | 'already-recorded' | 'unmatched' | 'conflict' | 'waiting';

const MOVES = {
  APROVADA: 'APPROVED',
  REJEITADA: 'REJECTED',
  EXPIRADA: 'EXPIRED',
  CANCELADA: 'CANCELLED',
} as const;

/** The recurrence as the partner has it now: approved, rejected, expired or cancelled (and by whom). */
export function applyPartnerRecurrence(ledger: LedgerContext, fact: RecurrenceAtPartner): FactOutcome {
  const row = findRecurrence(ledger.db, fact.idRec);
  if (!row || row.recurrenceId !== fact.idRec || isSimulatedPartner(ledger.env, row.partnerIspb))
    return 'unmatched';
  if (fact.status === 'CRIADA') return 'waiting';
  const to = MOVES[fact.status];
  if (row.status === to) return 'already-recorded';
  const moved = moveRecurrence(
    ledger,
    row.recurrenceId,
    to === 'CANCELLED' ? { to, by: fact.cancelledBy ?? 'PAYER_BANK' } : { to },
    false,
  );
  if (moved.ok) return 'recorded';
  // Ours moved first (our expiry, say) and the bank says otherwise: kept for an operator to see.
  log('error', 'a partner recurrence fact contradicts our state', {
    recurrenceId: row.recurrenceId,
    ours: row.status,
    partner: fact.status,
  });
  return 'conflict';
}

/** Attempts the payer's bank made and lost (`tentativas` REJEITADA or EXPIRADA). */
const failedAttempts = (fact: RecurringChargeAtPartner) =>
  fact.attempts.filter((a) => a.status === 'REJEITADA' || a.status === 'EXPIRADA');

/**
 * A cycle's charge as the partner has it now: its new failed attempts (each an event of the
 * recurrence), then its outcome: REJEITADA or EXPIRADA (the last attempt failed) ends the Cash-In
 * EXPIRED; CANCELADA ends it CANCELLED. Paid (CONCLUIDA) is booked from the Pix that paid it, read
 * again through the Pix path before this runs. While the charge is open after a failed attempt and
 * the recurrence allows retries, the next day's retry is asked of the partner
 * (`POST /cobr/{txid}/retentativa/{data}`).
 */
export async function applyPartnerCharge(
  ledger: LedgerContext,
  fact: RecurringChargeAtPartner,
): Promise<OperationResult<{ outcome: FactOutcome; retryOn?: string }>> {
  const link = chargeOfTransaction(ledger.db, fact.txid);
  const row = link && findCashIn(ledger.db, fact.txid);
  const rec = link && findRecurrence(ledger.db, link.recurrenceId);
  if (
    !link ||
    !row ||
    !rec ||
    rec.recurrenceId !== fact.idRec ||
    isSimulatedPartner(ledger.env, row.partnerIspb)
  )
    return success(200, { outcome: 'unmatched' });
  const failed = failedAttempts(fact);
  const fresh = failed.slice(link.failedAttempts.length);
  const open = row.status === 'AWAITING_PAYMENT';
  if (open && fresh.length > 0)
    recordFailedAttempts(
      ledger,
      row,
      link,
      rec,
      fresh.map(() => Date.now()),
    );
  if (open && (fact.status === 'REJEITADA' || fact.status === 'EXPIRADA')) {
    const expired = expireCashIn(ledger, row.transactionId, true);
    return expired.ok ? success(200, { outcome: 'recorded' }) : expired;
  }
  if (open && fact.status === 'CANCELADA') {
    const cancelled = await cancelCashIn(ledger, row.transactionId);
    return cancelled.ok ? success(200, { outcome: 'recorded' }) : cancelled;
  }
  if (!open || fresh.length === 0) return success(200, { outcome: open ? 'waiting' : 'already-recorded' });
  const retryOn = nextRetryDate(ledger, fact, rec.recurrenceId);
  if (retryOn !== undefined) {
    const retried = await partnerPort(ledger.env, row.partnerIspb).recurrences?.retryCharge(
      fact.txid,
      retryOn,
    );
    if (!retried?.ok)
      log('warn', 'the partner did not take a retry of a recurring charge', { txid: fact.txid, retryOn });
  }
  return success(200, { outcome: 'recorded', ...(retryOn !== undefined && { retryOn }) });
}

/** Tomorrow (or the day after the due date), when the recurrence's retry policy allows one then. */
function nextRetryDate(ledger: LedgerContext, fact: RecurringChargeAtPartner, recurrenceId: string) {
  const rec = findRecurrence(ledger.db, recurrenceId);
  const link = chargeOfTransaction(ledger.db, fact.txid);
  if (!rec || !link) return undefined;
  const tomorrow = addDays(brtDate(Date.now()), 1);
  const date = tomorrow > link.dueDate ? tomorrow : addDays(link.dueDate, 1);
  const earlier = fact.attempts.map((a) => a.date).filter((d) => d > link.dueDate);
  return retryRefusal(termsOf(rec), link.dueDate, date, [...new Set(earlier)]) ? undefined : date;
}

/**
 * The client cancels: on a real partner the recurrence is cancelled there first (`PATCH
 * /rec/{idRec}`), so the payer's bank stops; a partner that cannot answer now leaves it as it was.
 */
export async function cancelRecurrenceByClient(
  ledger: LedgerContext,
  id: string,
): Promise<OperationResult<unknown>> {
  const row = findRecurrence(ledger.db, id);
  if (!row) return recurrenceNotFound();
  if (row.status !== 'WAITING_AUTHORIZATION' && row.status !== 'APPROVED')
    return moveRecurrence(ledger, id, { to: 'CANCELLED', by: 'CLIENT' }, false);
  if (!isSimulatedPartner(ledger.env, row.partnerIspb)) {
    const answer = await partnerPort(ledger.env, row.partnerIspb).recurrences?.cancelRecurrence(
      row.recurrenceId,
    );
    if (!answer?.ok)
      return failure({
        code: 'RULE_VIOLATION',
        detail: 'The settlement partner could not cancel the recurrence now; nothing changed, retry later',
      });
  }
  return moveRecurrence(ledger, id, { to: 'CANCELLED', by: 'CLIENT' }, false);
}
