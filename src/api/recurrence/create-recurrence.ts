/**
 * POST /recurrences (docs/contract.md, Pix Automático): a recurrence for the payer to authorize, by
 * QR (a BR Code) or by a request pushed to the payer's bank.
 */
import * as v from 'valibot';
import type { RecurrenceView } from '../../../durable-objects/ledger/recurrence/recurrence-ops';
import { ledgerOf } from '../../../durable-objects/stubs';
import { locationHost } from '../../domain/location';
import { centsFromAmount } from '../../domain/money';
import { FREQUENCIES, isCalendarDate, RETRY_POLICIES } from '../../domain/recurrence';
import { requestFingerprint } from '../../http/idempotency';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { example, type In } from '../../openapi/examples';
import {
  AmountSchema,
  DocumentSchema,
  ExternalReferenceSchema,
  HttpUrlSchema,
  IspbSchema,
  NameSchema,
} from '../../schemas/common';
import { named } from '../../schemas/named';
import { withQrCodeImage } from '../cash-in/shared';
import { route } from '../route-table';
import { Recurrence, recurrenceWaiting, TAG } from './shared';

const date = (field: string) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.check(isCalendarDate, `${field} must be a calendar date YYYY-MM-DD`),
  );

const text = (field: string, max: number) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.trim(),
    v.minLength(1, `${field} must not be empty`),
    v.maxLength(max, `${field} must have at most ${max} characters`),
  );

/** POST /recurrences body (OpenAPI createRecurrence). */
const CreateRecurrenceSchema = named(
  'CreateRecurrence',
  v.strictObject({
    externalReference: ExternalReferenceSchema,
    frequency: v.picklist(FREQUENCIES, `frequency must be one of ${FREQUENCIES.join(', ')}`),
    startDate: date('startDate'),
    endDate: v.optional(date('endDate')),
    amount: v.optional(AmountSchema),
    minimumAmount: v.optional(AmountSchema),
    retryPolicy: v.optional(
      v.picklist(RETRY_POLICIES, `retryPolicy must be one of ${RETRY_POLICIES.join(', ')}`),
      'NONE',
    ),
    contract: text('contract', 35),
    description: v.optional(text('description', 35)),
    payer: v.strictObject(
      {
        name: NameSchema,
        document: DocumentSchema,
        bankData: v.optional(
          v.strictObject(
            {
              ispb: IspbSchema,
              branch: v.pipe(
                v.string('branch must be a string'),
                v.regex(/^\d{1,4}$/, 'branch must be 1 to 4 digits'),
              ),
              account: v.pipe(
                v.string('account must be a string'),
                v.regex(/^[0-9A-Za-z-]{1,20}$/, 'account must be 1 to 20 letters, digits or hyphens'),
              ),
            },
            'bankData must be an object with ispb, branch and account',
          ),
        ),
      },
      'payer must be an object',
    ),
    webhookUrl: v.optional(HttpUrlSchema),
    authorizationExpirationInDays: v.optional(
      v.pipe(
        v.number('authorizationExpirationInDays must be an integer'),
        v.integer('authorizationExpirationInDays must be an integer'),
        v.minValue(1, 'authorizationExpirationInDays must be between 1 and 30'),
        v.maxValue(30, 'authorizationExpirationInDays must be between 1 and 30'),
      ),
      7,
    ),
    includeQrCodeImage: v.optional(v.boolean('includeQrCodeImage must be a boolean'), false),
  }),
  {
    externalReference: 'Your own reference, unique per client among recurrences (409 otherwise).',
    frequency: 'API Pix `periodicidade`: SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL, ANUAL.',
    startDate: 'The first due date (America/Sao_Paulo), today or later; later cycles count from it.',
    endDate: 'The last date a cycle may fall due; none: until cancelled.',
    amount: 'Fixed amount of every charge. Omit for a variable amount.',
    minimumAmount: 'Variable amount only: the least a charge may be (API Pix `valorMinimoRecebedor`).',
    retryPolicy:
      '`THREE_IN_SEVEN_DAYS` (API Pix `PERMITE_3R_7D`) allows up to 3 retries within 7 days after a due date.',
    contract: 'What the payer authorizes: a contract or order number (API Pix `vinculo.contrato`).',
    description: 'Shown to the payer (API Pix `vinculo.objeto`).',
    payer:
      'Who authorizes and pays. With `bankData` the request is pushed to that bank (journey PUSH); without it the answer carries a BR Code (journey QR).',
    webhookUrl: "Receives the recurrence's events.",
    authorizationExpirationInDays: 'Days the payer has to answer; then the recurrence EXPIRES.',
    includeQrCodeImage: 'QR journey: also answer the BR Code as a Base64 PNG.',
  },
);

const createRecurrenceRequest: In<typeof CreateRecurrenceSchema> = {
  externalReference: 'assinatura-42',
  frequency: 'MONTHLY',
  startDate: '2027-01-31',
  amount: 29.9,
  retryPolicy: 'THREE_IN_SEVEN_DAYS',
  contract: 'PLANO-MENSAL-42',
  description: 'Assinatura mensal',
  payer: { name: 'Maria da Silva', document: '12345678909' },
  webhookUrl: 'https://loja.example.com.br/webhooks/pix',
};

async function handleCreateRecurrence({
  request,
  env,
  principal,
  idempotencyKey,
  raw,
  body,
}: Input<{ principal: true; idempotent: true; body: typeof CreateRecurrenceSchema }>): Promise<Response> {
  if (body.webhookUrl !== undefined) requireAllowedWebhookUrl(env, body.webhookUrl);
  const host = locationHost(env.PIX_LOCATION_HOST ?? '', new URL(request.url));
  const result = await ledgerOf(env, principal.clientId).recurrence({
    op: 'create',
    input: {
      ...(idempotencyKey !== undefined && { idempotencyKey }),
      requestHash: await requestFingerprint('POST /recurrences', '', raw),
      externalReference: body.externalReference,
      frequency: body.frequency,
      startDate: body.startDate,
      ...(body.endDate !== undefined && { endDate: body.endDate }),
      ...(body.amount !== undefined && { amountCents: centsFromAmount(body.amount) as number }),
      ...(body.minimumAmount !== undefined && {
        minimumAmountCents: centsFromAmount(body.minimumAmount) as number,
      }),
      retryPolicy: body.retryPolicy,
      contract: body.contract,
      ...(body.description !== undefined && { description: body.description }),
      payer: body.payer,
      ...(body.webhookUrl !== undefined && { webhookUrl: body.webhookUrl }),
      authorizationExpirationInDays: body.authorizationExpirationInDays,
      locationPrefix: `${host}/pix/rec/${principal.credentials.locationKey}`,
    },
  });
  return operationResponse(result, (created) =>
    withQrCodeImage(created as RecurrenceView, 'authorization', body.includeQrCodeImage),
  );
}

export const createRecurrence = route(
  {
    method: 'post',
    path: '/recurrences',
    operationId: 'createRecurrence',
    summary: 'Create a recurrence (Pix Automático)',
    description:
      'A recurrence for the payer to authorize once (API Pix `POST /rec`). Without ' +
      '`payer.bankData` the answer carries `authorization.copyAndPaste`, the BR Code the payer reads in ' +
      'their bank app (journey QR); with it the request is pushed to that bank (journey PUSH). The ' +
      'recurrence waits (WAITING_AUTHORIZATION) until the payer approves or rejects it, or it expires. ' +
      'A settlement partner without Pix Automático answers 422 RULE_VIOLATION and nothing is sent to ' +
      'it.',
    tag: TAG,
    auth: 'client',
    idempotent: true,
    body: {
      schema: CreateRecurrenceSchema,
      examples: { monthly: example('R$ 29,90 a month, QR journey', createRecurrenceRequest) },
    },
    success: {
      '201': {
        description: 'Created: WAITING_AUTHORIZATION.',
        schema: Recurrence,
        examples: { created: example('QR journey', recurrenceWaiting) },
      },
    },
    errors: ['VALIDATION_ERROR', 'DUPLICATED_EXTERNAL_REFERENCE', 'RULE_VIOLATION'],
  },
  handleCreateRecurrence,
);
