/**
 * POST /recurrences/{id}/charges (docs/contract.md, Pix Automático): a cycle's charge, an ordinary
 * Cash-In that carries its recurrence.
 */
import { ledgerOf } from '../../../durable-objects/stubs';
import { requestFingerprint } from '../../http/idempotency';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { example, type In } from '../../openapi/examples';
import { route } from '../route-table';
import { recurrencePathId } from './get-recurrence';
import { ChargeRecurrenceSchema } from './schemas';
import { chargedResponse, chargeLedgerInput, recurrenceIdParameter, TAG } from './shared';

export type { RecurringCashInCreatedBody } from './shared';

const chargeRequest: In<typeof ChargeRecurrenceSchema> = {
  amount: 29.9,
  dueDate: '2027-02-28',
  externalReference: 'assinatura-42-2027-02',
};

async function handleChargeRecurrence({
  request,
  env,
  principal,
  idempotencyKey,
  raw,
  body,
}: Input<{ principal: true; idempotent: true; body: typeof ChargeRecurrenceSchema }>): Promise<Response> {
  const id = recurrencePathId(request);
  const result = await ledgerOf(env, principal.clientId).recurrence({
    op: 'charge',
    input: {
      ...(idempotencyKey !== undefined && { idempotencyKey }),
      requestHash: await requestFingerprint('POST /recurrences/{id}/charges', id, raw),
      ...chargeLedgerInput(
        id,
        body,
        request.url,
        env.PIX_LOCATION_HOST ?? '',
        principal.credentials.locationKey,
      ),
    },
  });
  return operationResponse(result);
}

export const chargeRecurrence = route(
  {
    method: 'post',
    path: '/recurrences/{id}/charges',
    operationId: 'chargeRecurrence',
    summary: "Charge a recurrence's cycle",
    description:
      'Creates the charge of one cycle (API Pix `POST /cobr`) as an ordinary Cash-In carrying ' +
      '`recurrence`: read, listed, summarized, refunded and notified like every Cash-In. Only for an ' +
      'APPROVED recurrence, with an amount within its rules and a `dueDate` that is one of its due ' +
      'dates, 10 to 2 days from today; else 422 RULE_VIOLATION and nothing is sent. One charge per ' +
      "cycle. The payer's bank pays it on the due date (00:00–08:00, again 18:00–21:00, then up to 3 " +
      'retries within 7 days with THREE_IN_SEVEN_DAYS); each failed attempt is a ' +
      '`RECURRING_CHARGE_ATTEMPT_FAILED` event of the recurrence, and after the last one the Cash-In ' +
      'ends EXPIRED.',
    tag: TAG,
    auth: 'client',
    idempotent: true,
    parameters: [recurrenceIdParameter],
    body: {
      schema: ChargeRecurrenceSchema,
      examples: { monthly: example('February of R$ 29,90 a month', chargeRequest) },
    },
    success: chargedResponse('2027-02-20T10:15:30.123-03:00'),
    errors: ['VALIDATION_ERROR', 'RECURRENCE_NOT_FOUND', 'DUPLICATED_EXTERNAL_REFERENCE', 'RULE_VIOLATION'],
  },
  handleChargeRecurrence,
  {
    check: ({ env, body }) => {
      if (body.webhookUrl !== undefined) requireAllowedWebhookUrl(env, body.webhookUrl);
    },
  },
);
