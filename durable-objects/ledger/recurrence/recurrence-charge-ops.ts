/**
 * A recurrence's cycle charges (docs/contract.md, Pix Automático): each is an ordinary Cash-In,
 * created only for an APPROVED recurrence with an amount within its rules and a due date inside the
 * 10-to-2-day window, linked to its cycle in the Cash-In's own transaction (so a crash never leaves
 * one without the other, and a cycle is charged once). The payer bank's failed attempts end the
 * Cash-In EXPIRED after the last one the recurrence allows.
 */
import { type CashInRecurrence, cashInView } from '../../../src/domain/cash-in';
import { cycleChargeTxId } from '../../../src/domain/ids';
import { amountFromCents } from '../../../src/domain/money';
import { present } from '../../../src/domain/present';
import {
  amountRefusal,
  chargeRecheckAt,
  cycleOf,
  dueDateRefusal,
  lastAttemptDay,
  MAX_RETRIES,
  payerCancelDeadline,
} from '../../../src/domain/recurrence';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { brtStartOfDay } from '../../../src/domain/time';
import { isSimulatedPartner } from '../../../src/partners/config';
import { cancelCashIn, createCashIn, expireCashIn } from '../cash-in/cash-in-ops';
import { type CashInRow, cashInNotFound, findCashIn, updateCashIn } from '../cash-in/cash-in-store';
import { cycleCode, releaseCycleCode } from '../internal-codes';
import type { Remember } from '../ledger/idempotency';
import type { LedgerContext } from '../ledger-context';
import { emitWebhook } from '../webhooks/events';
import { recurrenceNotFound, termsOf } from './recurrence-ops';
import {
  chargeOfCycle,
  chargeOfTransaction,
  chargesOf,
  findRecurrence,
  insertRecurrenceCharge,
  type RecurrenceChargeRow,
  type RecurrenceRow,
  setFailedAttempts,
} from './recurrence-store';

const HOUR_MS = 3_600_000;
/** The due date's two attempts (00:00–08:00, 18:00–21:00), then with retries at most 3 more. */
const DUE_DATE_ATTEMPTS = 2;

export interface ChargeRecurrenceInput {
  id: string;
  amountCents: number;
  dueDate: string;
  externalReference: string;
  webhookUrl?: string;
  locationPrefix: string;
  paymentUrlPrefix: string;
  locationKey: string;
  /**
   * Sandbox only: charge as if today (America/Sao_Paulo) were this date, so tests reach any cycle's
   * window without waiting; only the window check moves, the Cash-In is created now.
   */
  asOf?: string;
}

export function maxAttempts(retryPolicy: string): number {
  return DUE_DATE_ATTEMPTS + (retryPolicy === 'NONE' ? 0 : MAX_RETRIES);
}

/** What a recurring Cash-In carries besides the Cash-In (OpenAPI RecurringCharge). */
export function chargeFields(link: RecurrenceChargeRow, retryPolicy: string): CashInRecurrence {
  return {
    recurrenceId: link.recurrenceId,
    cycle: link.cycle,
    dueDate: link.dueDate,
    failedAttempts: link.failedAttempts.length,
    attemptsLeft: Math.max(0, maxAttempts(retryPolicy) - link.failedAttempts.length),
  };
}

export async function chargeRecurrence(
  ledger: LedgerContext,
  input: ChargeRecurrenceInput,
  /** Cash-In references and cycles being created now: the partner call is awaited between check and insert. */
  creating: { cashIns: Set<string>; cycles: Set<string> },
  remember: Remember,
): Promise<OperationResult<unknown>> {
  const charging = creating.cycles;
  const rec = findRecurrence(ledger.db, input.id);
  if (!rec) return recurrenceNotFound();
  if (rec.status !== 'APPROVED')
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only an APPROVED recurrence is charged; this one is ${rec.status}`,
    });
  // A real partner's recurrence has no sandbox clock: it answers like a nonexistent one.
  if (input.asOf !== undefined && !isSimulatedPartner(ledger.env, rec.partnerIspb))
    return recurrenceNotFound();
  const today = input.asOf === undefined ? Date.now() : brtStartOfDay(input.asOf) + 12 * HOUR_MS;
  const terms = termsOf(rec);
  const refusal = amountRefusal(terms, input.amountCents) ?? dueDateRefusal(terms, input.dueDate, today);
  if (refusal) return failure(refusal);
  const cycle = cycleOf(rec.startDate, rec.frequency, input.dueDate) as number;
  const key = `${rec.recurrenceId}:${cycle}`;
  const existing = chargeOfCycle(ledger.db, rec.recurrenceId, cycle);
  if (existing || charging.has(key))
    return failure({
      code: 'RULE_VIOLATION',
      detail: `The cycle due on ${input.dueDate} is already charged${existing ? ` (${existing.transactionId})` : ''}`,
    });
  // The last attempt: 21:00 on the settlement date, or on the last retry day.
  const lastDay = lastAttemptDay(input.dueDate, rec.retryPolicy);
  const expiresAt = brtStartOfDay(lastDay) + 21 * HOUR_MS;
  const link = (transactionId: string): RecurrenceChargeRow => ({
    transactionId,
    recurrenceId: rec.recurrenceId,
    cycle,
    dueDate: input.dueDate,
    failedAttempts: [],
  });
  const withRecurrence = (body: unknown) => {
    const created = body as { transactionId: string };
    return { ...created, recurrence: chargeFields(link(created.transactionId), rec.retryPolicy) };
  };
  const real = !isSimulatedPartner(ledger.env, rec.partnerIspb);
  charging.add(key);
  try {
    // At a real partner the payer's bank debits the cycle's `cobr` by itself: its TxId is the
    // cycle's (its code kept until the charge is stored), so a retry after a crash finds the charge
    // it sent rather than sending a second one.
    const internalCode = real ? cycleCode(ledger.db, rec.recurrenceId, cycle) : undefined;
    const ids = internalCode && {
      internalCode,
      transactionId: await cycleChargeTxId(input.locationKey, internalCode, rec.recurrenceId, cycle),
    };
    const result = await createCashIn(
      ledger,
      {
        amountCents: input.amountCents,
        externalReference: input.externalReference,
        expirationInMinutes: 0,
        expiresAt,
        ...((input.webhookUrl ?? rec.webhookUrl) != null && {
          webhookUrl: (input.webhookUrl ?? rec.webhookUrl) as string,
        }),
        payer: { name: rec.payerName, document: rec.payerDocument },
        locationPrefix: input.locationPrefix,
        paymentUrlPrefix: input.paymentUrlPrefix,
        locationKey: input.locationKey,
        // A real partner's cycle is its `cobr` under the recurrence's idRec; the sandbox pays a BR Code.
        ...(ids && { ids, recurrence: { idRec: rec.recurrenceId, dueDate: input.dueDate } }),
        recurringCharge: chargeFields(link(''), rec.retryPolicy),
      },
      creating.cashIns,
      (status, body, about) => remember(status, withRecurrence(body), about),
      (transactionId) => {
        insertRecurrenceCharge(ledger.db, link(transactionId));
        if (real) releaseCycleCode(ledger.db, rec.recurrenceId, cycle);
        // Read again after each attempt window, so its outcome never waits on a `cobr` callback.
        if (real)
          ledger.scheduler.schedule(
            'recheck-recurring-charge',
            transactionId,
            chargeRecheckAt(input.dueDate, lastDay, Date.now()),
          );
      },
    );
    return result.ok ? success(result.status, withRecurrence(result.body)) : result;
  } finally {
    charging.delete(key);
  }
}

/** A recurring Cash-In of a simulated partner, with its link and recurrence, or a not-found answer. */
function sandboxCharge(ledger: LedgerContext, id: string) {
  const row = findCashIn(ledger.db, id);
  const link = row && chargeOfTransaction(ledger.db, row.transactionId);
  const rec = link && findRecurrence(ledger.db, link.recurrenceId);
  if (!row || !link || !rec || !isSimulatedPartner(ledger.env, row.partnerIspb)) return undefined;
  return { row, link, rec };
}

/**
 * Failed attempts of the payer's bank at `at` instants: each one `RECURRING_CHARGE_ATTEMPT_FAILED`
 * among the recurrence's events, in one transaction with the attempts recorded.
 */
export function recordFailedAttempts(
  ledger: LedgerContext,
  row: CashInRow,
  link: RecurrenceChargeRow,
  rec: RecurrenceRow,
  at: number[],
): RecurrenceChargeRow {
  let attempts = link.failedAttempts;
  ledger.storage.transactionSync(() => {
    for (const instant of at) {
      attempts = [...attempts, instant];
      setFailedAttempts(ledger.db, row.transactionId, attempts);
      const fields = chargeFields({ ...link, failedAttempts: attempts }, rec.retryPolicy);
      const counted = updateCashIn(ledger, row.seq, { recurrence: fields });
      // On the recurrence's events, to its webhookUrl: the Cash-In's own events stay its state history.
      emitWebhook(ledger, {
        aggregateId: `recurrence:${rec.recurrenceId}`,
        eventType: 'RECURRING_CHARGE_ATTEMPT_FAILED',
        data: cashInView(counted),
        webhookUrl: rec.webhookUrl,
        at: instant,
      });
    }
  });
  return { ...link, failedAttempts: attempts };
}

/**
 * The payer's bank failed an attempt now (sandbox): `RECURRING_CHARGE_ATTEMPT_FAILED` among the
 * recurrence's events; after the last attempt the recurrence allows, the Cash-In ends EXPIRED.
 */
export function failChargeAttempt(ledger: LedgerContext, id: string): OperationResult<unknown> {
  const found = sandboxCharge(ledger, id);
  if (!found) return cashInNotFound();
  const { row, link, rec } = found;
  if (row.status !== 'AWAITING_PAYMENT')
    return failure({
      code: 'RULE_VIOLATION',
      detail: `Only an AWAITING_PAYMENT charge is attempted; this one is ${row.status}`,
    });
  const fields = chargeFields(recordFailedAttempts(ledger, row, link, rec, [Date.now()]), rec.retryPolicy);
  if (fields.attemptsLeft === 0) return expireCashIn(ledger, row.transactionId, true);
  return success(
    200,
    cashInView(present(findCashIn(ledger.db, row.transactionId), `Cash-In ${row.transactionId}`)),
  );
}

/** The payer cancels a charge in their bank (sandbox): until 23:59:59.999 the day before it is due. */
export async function payerCancelsCharge(
  ledger: LedgerContext,
  id: string,
): Promise<OperationResult<unknown>> {
  const found = sandboxCharge(ledger, id);
  if (!found) return cashInNotFound();
  if (Date.now() > payerCancelDeadline(found.link.dueDate))
    return failure({
      code: 'RULE_VIOLATION',
      detail: 'The payer may cancel a charge only until 23:59 the day before it is due',
    });
  return cancelCashIn(ledger, found.row.transactionId);
}

/** GET /recurrences/{id}/charges: each cycle's charge, first cycle first, with its Cash-In's status now. */
export function recurrenceCharges(ledger: LedgerContext, id: string): OperationResult<unknown> {
  const rec = findRecurrence(ledger.db, id);
  if (!rec) return recurrenceNotFound();
  const items = chargesOf(ledger.db, rec.recurrenceId).map((link) => {
    const cashIn = findCashIn(ledger.db, link.transactionId);
    return {
      transactionId: link.transactionId,
      // An archived Cash-In is read by GET /cash-in/{id}; its link stays here.
      ...(cashIn && {
        internalCode: cashIn.internalCode,
        externalReference: cashIn.externalReference,
        status: cashIn.status,
        amount: amountFromCents(cashIn.amount),
      }),
      ...chargeFields(link, rec.retryPolicy),
    };
  });
  return success(200, { items });
}
