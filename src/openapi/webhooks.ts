/**
 * Events posted to the integrator (docs/contract.md, Webhooks), as OpenAPI 3.1 `webhooks`: the
 * envelope `{eventType, eventAt, data}` and the Standard Webhooks headers that sign it.
 */

import type * as v from 'valibot';
import { CashIn, cashInPaid } from '../api/cash-in/shared';
import { CashOut, cashOutCompleted } from '../api/cash-out/shared';
import {
  Recurrence,
  RecurringCashIn,
  recurrenceApproved,
  recurringCashInFailedOnce,
} from '../api/recurrence/shared';
import { ref, type Schema } from './json-schema';

/** What the events carry: `data` is a Cash-In, Cash-Out or recurrence view, or a recurring Cash-In. */
export const WEBHOOK_SCHEMAS = [CashIn, CashOut, Recurrence, RecurringCashIn];

const SIGNATURE_HEADERS = [
  ['webhook-id', 'Unique per event; the same on every retry (deduplicate on it).'],
  ['webhook-timestamp', 'Unix seconds of this attempt.'],
  [
    'webhook-signature',
    '`v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}` with your ' +
      '`webhookSecret` (the bytes after `whsec_`, base64-decoded). Any Standard Webhooks library ' +
      'verifies it.',
  ],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}));

const DELIVERY =
  `Delivered at least once, in the order the events of one transaction happened. ` +
  `Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 ` +
  `h, then given up (kept for the operator).`;

const TAGS = {
  cashIn: 'Cash-In',
  cashOut: 'Cash-Out',
  recurrence: 'Pix Automático',
  recurringCharge: 'Pix Automático',
};

function event(
  summary: string,
  types: string[],
  [kind, data]: [keyof typeof TAGS, v.GenericSchema],
  sample: unknown,
  description: string,
): Schema {
  const sampleType = (types[1] ?? types[0]) as string;
  return {
    post: {
      operationId: `${kind}Event`,
      summary,
      description: `${description}\n\n${DELIVERY}`,
      tags: [TAGS[kind]],
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['eventType', 'eventAt', 'data'],
              properties: {
                eventType: { type: 'string', enum: types },
                eventAt: {
                  type: 'string',
                  format: 'date-time',
                  description: 'When this event was sent (not when the fact happened), offset -03:00.',
                },
                data: ref(data),
              },
            },
            examples: {
              [sampleType]: {
                summary: sampleType,
                value: { eventType: sampleType, eventAt: '2026-11-21T10:18:03.102-03:00', data: sample },
              },
            },
          },
        },
      },
      responses: { '200': { description: 'Any 2xx acknowledges the event.' } },
    },
  };
}

export function webhooks(): Record<string, Schema> {
  return {
    cashInEvent: event(
      'Cash-In event',
      [
        'CASHIN_REQUESTED',
        'CASHIN_PAID',
        'CASHIN_REFUNDED',
        'CASHIN_REFUND_FAILED',
        'CASHIN_EXPIRED',
        'CASHIN_CANCELLED',
        'CASHIN_DISPUTE_OPENED',
        'CASHIN_DISPUTE_UPDATED',
        'CASHIN_DISPUTE_CLOSED',
      ],
      ['cashIn', CashIn],
      cashInPaid,
      '`data` is the Cash-In exactly as GET /cash-in/{id} returns it at that moment ' +
        '(CASHIN_REQUESTED: status AWAITING_PAYMENT). CASHIN_EXPIRED is sent 5 to 7 minutes after ' +
        '`expiredAt`. CASHIN_REFUND_FAILED: a refund accepted with 202 failed at the PIX network; `data` ' +
        'is PAID again with `refundFailure` (code and message), the money is available again, and a new ' +
        "refund may be requested (the failed one's idempotency key no longer replays). From the payment " +
        'on, `data` carries `paidBy`, the account that actually paid. CASHIN_PAID is sent only for a ' +
        "payment the client's payer rules allow (`paidBy.allowed` true): credit your customer on it. A " +
        'payment they do not allow (`blockedPayerDocuments`, or another payer under `payerPolicy` ' +
        'DECLARED_PAYER) sends no CASHIN_PAID; its money is held and returned, and CASHIN_REFUNDED ' +
        "follows with reason PAYER_NOT_ALLOWED. CASHIN_DISPUTE_OPENED: the payer's bank opened a MED " +
        "infraction; `dispute.blockedAmount` is held at once (do not credit it again; a bettor's balance " +
        'should be frozen by it). CASHIN_DISPUTE_UPDATED: the defense was recorded (`dispute.status` ' +
        'DEFENDED) or the amount changed. CASHIN_DISPUTE_CLOSED: `dispute.status` ACCEPTED (the money ' +
        'goes back to the payer; CASHIN_REFUNDED follows once returned), REJECTED or CANCELLED (the block ' +
        'is lifted).',
    ),
    cashOutEvent: event(
      'Cash-Out event',
      ['CASHOUT_REQUESTED', 'CASHOUT_COMPLETED', 'CASHOUT_FAILED', 'CASHOUT_REFUNDED'],
      ['cashOut', CashOut],
      cashOutCompleted,
      '`data` is the Cash-Out exactly as GET /cash-out/{id} returns it. The outcome of every ' +
        'accepted Cash-Out arrives as an event: CASHOUT_COMPLETED, or CASHOUT_FAILED (status CANCELLED, ' +
        'with `failure`), and later possibly CASHOUT_REFUNDED.',
    ),
    recurrenceEvent: event(
      'Recurrence event (Pix Automático)',
      ['RECURRENCE_APPROVED', 'RECURRENCE_REJECTED', 'RECURRENCE_EXPIRED', 'RECURRENCE_CANCELLED'],
      ['recurrence', Recurrence],
      recurrenceApproved,
      "Sent to the recurrence's `webhookUrl`; `data` is the recurrence exactly as GET /recurrences/{id} returns it at that moment.",
    ),
    recurringChargeEvent: event(
      'Recurring charge attempt event (Pix Automático)',
      ['RECURRING_CHARGE_ATTEMPT_FAILED'],
      ['recurringCharge', RecurringCashIn],
      recurringCashInFailedOnce,
      "The payer's bank failed an attempt of a cycle's charge. Sent to the recurrence's " +
        '`webhookUrl`; `data` is the Cash-In with its `recurrence` (attempts so far and left). The ' +
        "charge's own events (CASHIN_PAID, CASHIN_EXPIRED after the last attempt) go to the Cash-In's " +
        '`webhookUrl`.',
    ),
  };
}
