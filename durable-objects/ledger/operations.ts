/**
 * ClientLedger's write operations, each declared once (./operation.ts says what each key means and
 * the order ClientLedger's `run()` applies them in). The rules and steps are in the operation
 * modules; here is only what each needs around it.
 */

import type { AuditRow } from '../../src/db/audit';
import type { PayerRules } from '../../src/domain/payer-rules';
import { failure } from '../../src/domain/result';
import type { AttemptOutcome } from '../../src/webhooks/types';
import { archiveAll } from './archive/archive';
import { readBackGivenUp } from './archive/archive-deliveries';
import { audited, auditedRun } from './audit-ops';
import { bankReturn } from './cash-in/bank-returns';
import type { CreateCashInInput } from './cash-in/cash-in-ops';
import { cancelCashIn, createCashIn, expireCashIn } from './cash-in/cash-in-ops';
import { type SettleInput, settleCashIn } from './cash-in/cash-in-settle-ops';
import { findCashIn } from './cash-in/cash-in-store';
import { type DisputeCommand, runDisputeCommand } from './cash-in/dispute-commands';
import { applyPartnerPix, type ReceivedPix } from './cash-in/partner-pix-ops';
import { startRefund } from './cash-in/refund-ops';
import { acceptCashOutBatch } from './cash-out/cash-out-batch-ops';
import {
  acceptCashOut,
  approveCashOut,
  type CreateCashOutInput,
  rejectCashOut,
  returnCashOut,
} from './cash-out/cash-out-ops';
import type { Idempotent } from './ledger/idempotency';
import { deposit, type RebalanceInput, rebalance } from './ledger/transfer-ops';
import { operation, type Step } from './operation';
import { type RecurrenceCommand, recurrenceCommand } from './recurrence/recurrence-rpc';
import { readBackHolding } from './webhooks/delivery-parking';
import { emitWebhook } from './webhooks/events';
import { recordAttempt, retryDelivery } from './webhooks/webhook-deliveries';

const byId = (input: { id: string }) => input.id;

/** The payer rules an operation declaring `payerRules` was given. */
function rulesOf(step: Step): PayerRules {
  if (!step.payerRules) throw new Error('ledger operation: payerRules not declared');
  return step.payerRules;
}

// -- Cash-In ------------------------------------------------------------------

export const createCashInOp = operation<CreateCashInInput & Idempotent>()({
  idempotent: true,
  apply: (ledger, input, step) => createCashIn(ledger, input, step.creatingCashIns, step.remember),
});

export const refundCashInOp = operation<
  Idempotent & { id: string; reason: string; description: string | null }
>()({
  rehydrates: { kind: 'cash-in', id: byId },
  idempotent: true,
  apply: async (ledger, input, step) => {
    const row = findCashIn(ledger.db, input.id);
    if (!row) return failure({ code: 'CASHIN_NOT_FOUND', detail: 'No Cash-In matches this id' });
    return startRefund(ledger, row, input.reason, input.description, step.remember, input.idempotencyKey);
  },
});

/** An archived one answers as it did (422), not 404. */
export const cancelCashInOp = operation<{ id: string }>()({
  rehydrates: { kind: 'cash-in', id: byId },
  apply: (ledger, input) => cancelCashIn(ledger, input.id),
});

export const settleCashInOp = operation<Omit<SettleInput, 'rules'>>()({
  payerRules: true,
  rehydrates: { kind: 'cash-in', id: byId },
  sandbox: { target: 'cash-in', id: byId, when: (input) => input.source === 'sandbox' },
  apply: (ledger, input, step) => settleCashIn(ledger, { ...input, rules: rulesOf(step) }),
});

/** The sandbox's bank return (MED); a real partner's arrive through partnerPix. */
export const returnCashInOp = operation<{ id: string; reason: string }>()({
  rehydrates: { kind: 'cash-in', id: byId },
  sandbox: { target: 'cash-in', id: byId },
  apply: (ledger, input) => bankReturn(ledger, input.id, input.reason),
});

/** A received Pix a real partner reported; its txid names a Cash-In a bank return may be of. */
export const partnerPixOp = operation<{ ispb: string; pix: ReceivedPix }>()({
  payerRules: true,
  rehydrates: { kind: 'cash-in', id: (input) => input.pix.txid },
  apply: (ledger, input, step) => applyPartnerPix(ledger, input.ispb, input.pix, rulesOf(step)),
});

/**
 * MED disputes: the sandbox's open and close, a real partner's notices, the client's defense. A
 * dispute on an archived Cash-In brings it back hot (an open dispute keeps it there).
 */
export const disputeOp = operation<DisputeCommand>()({
  rehydrates: { kind: 'cash-in', id: byId },
  sandbox: { target: 'cash-in', id: byId, when: (command) => command.kind.startsWith('sandbox-') },
  apply: (ledger, command) => runDisputeCommand(ledger, command),
});

export const expireCashInNowOp = operation<{ id: string }>()({
  sandbox: { target: 'cash-in', id: byId },
  apply: (ledger, input) => expireCashIn(ledger, input.id, true),
});

// -- Cash-Out -----------------------------------------------------------------

export const createCashOutOp = operation<CreateCashOutInput & Idempotent>()({
  idempotent: true,
  apply: (ledger, input, step) => acceptCashOut(ledger, input, step.remember),
});

/** Every item checked, then all accepted in one transaction (or none). */
export const createCashOutBatchOp = operation<Idempotent & { items: CreateCashOutInput[] }>()({
  idempotent: true,
  apply: (ledger, input, step) => acceptCashOutBatch(ledger, input.items, step.remember),
});

/** The operator's decision on a PENDING Cash-Out, with its audit record in the same transaction. */
export const decideCashOutOp = operation<{ id: string; approve: boolean; audit?: AuditRow }>()({
  rehydrates: { kind: 'cash-out', id: byId },
  apply: (ledger, input) =>
    audited(ledger, ledger.env, input.audit, () =>
      input.approve ? approveCashOut(ledger, input.id) : rejectCashOut(ledger, input.id),
    ),
});

export const returnCashOutOp = operation<{ id: string; reason: string }>()({
  rehydrates: { kind: 'cash-out', id: byId },
  sandbox: { target: 'cash-out', id: byId },
  apply: (ledger, input) => returnCashOut(ledger, input.id, input.reason),
});

// -- Accounts -----------------------------------------------------------------

export const rebalanceOp = operation<RebalanceInput & Idempotent>()({
  idempotent: true,
  apply: (ledger, input, step) => rebalance(ledger, input, step.remember),
});

export const depositOp = operation<{ number: string; amountCents: number }>()({
  sandbox: { target: 'account', id: (input) => input.number },
  apply: (ledger, input) => deposit(ledger, input.number, input.amountCents),
});

// -- Webhooks -----------------------------------------------------------------

export const recordWebhookAttemptOp = operation<{
  eventId: string;
  dispatch: number;
  outcome: AttemptOutcome;
}>()({
  apply: (ledger, input) => recordAttempt(ledger, input.eventId, input.dispatch, input.outcome, Date.now()),
});

export const retryWebhookDeliveryOp = operation<{ eventId: string; audit?: AuditRow }>()({
  // An archived GIVEN_UP or a parked FAILED delivery comes back hot first, so the retry answers as for a hot one.
  apply: async (ledger, input) => {
    await readBackGivenUp(ledger, input.eventId, Date.now());
    await readBackHolding(ledger, input.eventId);
    return audited(ledger, ledger.env, input.audit, () => retryDelivery(ledger, input.eventId, Date.now()));
  },
});

// -- Pix Automático -----------------------------------------------------------

/** Create, read, list and move recurrences; each command keeps its own idempotency (recurrence-rpc.ts). */
export const recurrenceOp = operation<RecurrenceCommand>()({
  apply: (ledger, command, step) =>
    recurrenceCommand(ledger, step.idempotencyKeys, command, {
      cashIns: step.creatingCashIns,
      cycles: step.chargingCycles,
      recurrences: step.creatingRecurrences,
    }),
});

/** An incident change for this client's healthWebhookUrl, through the same outbox as the rest. */
export const emitHealthEventOp = operation<{
  eventType: string;
  incidentId: string;
  data: unknown;
  webhookUrl: string;
}>()({
  apply: (ledger, event) => {
    ledger.storage.transactionSync(() =>
      emitWebhook(ledger, {
        aggregateId: `incident:${event.incidentId}`,
        eventType: event.eventType,
        data: event.data,
        webhookUrl: event.webhookUrl,
        at: Date.now(),
      }),
    );
  },
});

// -- Archive ------------------------------------------------------------------

/** Closed history before `before` to R2; the operator's record is kept in the transaction that concludes the run. */
export const archiveOp = operation<{ before: number; audit?: AuditRow }>()({
  apply: (ledger, input) =>
    auditedRun(ledger, ledger.env, input.audit, (context, conclude) =>
      archiveAll(context, input.before, conclude),
    ),
});
