/**
 * ClientLedger's one RPC for recurrences: each command to its operation (recurrence-ops.ts), a
 * creation under its idempotency key.
 */
import { failure, type OperationResult, success } from '../../../src/domain/result';
import type { RecurrenceAtPartner, RecurringChargeAtPartner } from '../../../src/partners/port';
import type { IdempotencyKeys, Idempotent } from '../ledger/idempotency';
import type { LedgerContext } from '../ledger-context';
import {
  type ChargeRecurrenceInput,
  chargeRecurrence,
  failChargeAttempt,
  payerCancelsCharge,
  recurrenceCharges,
} from './recurrence-charge-ops';
import {
  type CancelledBy,
  type CreateRecurrenceInput,
  createRecurrence,
  getRecurrence,
  listRecurrences,
  moveRecurrence,
  type RecurrenceView,
} from './recurrence-ops';
import {
  applyPartnerCharge,
  applyPartnerRecurrence,
  cancelRecurrenceByClient,
} from './recurrence-partner-ops';

export type RecurrenceCommand =
  | { op: 'create'; input: CreateRecurrenceInput & Idempotent }
  | { op: 'get'; id: string }
  | { op: 'list'; limit: number; before?: number }
  | { op: 'approve'; id: string; payerMaximumAmountCents?: number }
  | { op: 'reject'; id: string }
  | { op: 'cancel'; id: string; by: CancelledBy }
  | { op: 'charge'; input: ChargeRecurrenceInput & Idempotent }
  | { op: 'charges'; id: string }
  | { op: 'fail-attempt'; cashInId: string }
  | { op: 'payer-cancel-charge'; cashInId: string }
  /** A real partner's facts, read again after its `rec` / `cobr` callback (recurrence-partner-ops.ts). */
  | { op: 'partner-rec'; fact: RecurrenceAtPartner }
  | { op: 'partner-cobr'; fact: RecurringChargeAtPartner };

export type RecurrencePage = { items: RecurrenceView[]; nextBefore?: number };

export async function recurrenceCommand(
  ledger: LedgerContext,
  keys: IdempotencyKeys,
  c: RecurrenceCommand,
  /** What the object is creating right now (in its memory: a crash forgets it with the request). */
  creating: { cashIns: Set<string>; cycles: Set<string>; recurrences: Set<string> },
): Promise<OperationResult<unknown>> {
  switch (c.op) {
    case 'create':
      return keys.run(c.input.idempotencyKey, c.input.requestHash, Date.now(), async (remember) =>
        createRecurrence(ledger, c.input, remember, creating.recurrences),
      );
    case 'get': {
      const view = getRecurrence(ledger, c.id);
      return view
        ? success(200, view)
        : failure({ code: 'RECURRENCE_NOT_FOUND', detail: 'No recurrence matches this id' });
    }
    case 'list':
      return success(200, listRecurrences(ledger, c.limit, c.before));
    case 'approve':
      return moveRecurrence(
        ledger,
        c.id,
        {
          to: 'APPROVED',
          ...(c.payerMaximumAmountCents !== undefined && {
            payerMaximumAmountCents: c.payerMaximumAmountCents,
          }),
        },
        true,
      );
    case 'reject':
      return moveRecurrence(ledger, c.id, { to: 'REJECTED' }, true);
    case 'cancel':
      // The client cancels any of its recurrences (at a real partner first); the payer's side only
      // through the sandbox partner.
      return c.by === 'CLIENT'
        ? cancelRecurrenceByClient(ledger, c.id)
        : moveRecurrence(ledger, c.id, { to: 'CANCELLED', by: c.by }, true);
    case 'charge':
      return keys.run(c.input.idempotencyKey, c.input.requestHash, Date.now(), (remember) =>
        chargeRecurrence(ledger, c.input, creating, remember),
      );
    case 'charges':
      return recurrenceCharges(ledger, c.id);
    case 'fail-attempt':
      return failChargeAttempt(ledger, c.cashInId);
    case 'payer-cancel-charge':
      return payerCancelsCharge(ledger, c.cashInId);
    case 'partner-rec':
      return success(200, { outcome: applyPartnerRecurrence(ledger, c.fact) });
    case 'partner-cobr':
      return applyPartnerCharge(ledger, c.fact);
  }
}
