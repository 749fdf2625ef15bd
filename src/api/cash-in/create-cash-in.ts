/**
 * POST /cash-in (docs/contract.md, Cash-In lifecycle): a charge, paid by BR Code or, in staging,
 * open finance.
 */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import type { CashInCreated as Created } from '../../domain/cash-in';
import { locationHost } from '../../domain/location';
import { centsFromAmount } from '../../domain/money';
import { requestFingerprint } from '../../http/idempotency';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { example, type In, type Out } from '../../openapi/examples';
import {
  AmountSchema,
  DocumentSchema,
  ExternalReferenceSchema,
  HttpUrlSchema,
  NameSchema,
} from '../../schemas/common';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { CashInCreated, TAG, withQrCodeImage } from './shared';

export type { CashInCreatedBody } from './shared';

/** POST /cash-in body (OpenAPI createCashIn). */
const CreateCashInSchema = named(
  'CreateCashIn',
  v.strictObject({
    amount: AmountSchema,
    externalReference: ExternalReferenceSchema,
    expirationInMinutes: v.optional(
      v.pipe(
        v.number('expirationInMinutes must be an integer'),
        v.integer('expirationInMinutes must be an integer'),
        v.minValue(1, 'expirationInMinutes must be between 1 and 43200'),
        v.maxValue(43200, 'expirationInMinutes must be between 1 and 43200'),
      ),
      1440,
    ),
    webhookUrl: v.optional(HttpUrlSchema),
    payer: v.strictObject(
      {
        name: NameSchema,
        document: DocumentSchema,
      },
      'payer must be an object',
    ),
    openFinance: v.optional(
      v.strictObject({ redirectUrl: HttpUrlSchema }, 'openFinance must be an object with redirectUrl'),
    ),
    includeQrCodeImage: v.optional(v.boolean('includeQrCodeImage must be a boolean'), true),
  }),
  {
    amount: 'BRL, at least 0.01.',
    externalReference:
      'Your own reference, unique per client (409 DUPLICATED_EXTERNAL_REFERENCE otherwise); also accepted as `{id}` on GET /cash-in/{id}.',
    expirationInMinutes: 'Payment window in minutes; `expiredAt` = creation + this.',
    webhookUrl:
      'Receives the events of this Cash-In. Production: https to a public host only; staging also allows http://127.0.0.1 and localhost.',
    payer:
      'Who pays: `name` and `document` (a CPF of 11 digits or a CNPJ of 14 characters, 12 digits ' +
      'or letters then 2 digits, the alphanumeric CNPJ included; no separators; letters read ' +
      "upper-case; check digits verified). A real partner's PSP receives it as the charge's `devedor` " +
      'and shows it to the payer.',
    openFinance:
      'When present, selects the open-finance flow; `redirectUrl` is where the payer goes after ' +
      'paying. Sandbox partner only (staging): on a real partner 422 RULE_VIOLATION.',
    includeQrCodeImage: 'When true the answer includes the QR code as a Base64 PNG.',
  },
);

const createCashInRequest: In<typeof CreateCashInSchema> = {
  amount: 150.25,
  externalReference: 'pedido-1',
  expirationInMinutes: 60,
  webhookUrl: 'https://loja.example.com.br/webhooks/pix',
  payer: { name: 'Maria da Silva', document: '12345678909' },
  includeQrCodeImage: false,
};

const createOpenFinanceCashInRequest: In<typeof CreateCashInSchema> = {
  amount: 89.9,
  externalReference: 'pedido-2',
  payer: { name: 'João Souza', document: '98765432100' },
  openFinance: { redirectUrl: 'https://loja.example.com.br/checkout/retorno' },
};

const cashInCreated: Out<typeof CashInCreated> = {
  transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
  internalCode: 'K7Q2M9X',
  externalReference: 'pedido-1',
  status: 'AWAITING_PAYMENT',
  amount: 150.25,
  payer: { name: 'Maria da Silva', document: '12345678909' },
  pixData: {
    copyAndPaste:
      '00020101021226760014br.gov.bcb.pix2554api.connectpsp.com.br/pix/qr/3f9a2c1bK7Q2M9X5204000053039865406150.255802BR5920Loja ' +
      'Teste Ltda6009Sao Paulo62070503***6304ABCD',
  },
  requestedAt: '2026-11-21T10:15:30.123-03:00',
};

async function handleCreateCashIn({
  request,
  env,
  principal,
  idempotencyKey,
  raw,
  body,
}: Input<{ principal: true; idempotent: true; body: typeof CreateCashInSchema }>): Promise<Response> {
  if (body.webhookUrl !== undefined) requireAllowedWebhookUrl(env, body.webhookUrl);
  const url = new URL(request.url);
  const host = locationHost(env.PIX_LOCATION_HOST ?? '', url);
  // A random key, never the client id: anyone may read a QR code (domain/location.ts).
  const key = principal.credentials.locationKey;
  const result = await ledgerOf(env, principal.clientId).createCashIn({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    requestHash: await requestFingerprint('POST /cash-in', '', raw),
    amountCents: centsFromAmount(body.amount) as number,
    externalReference: body.externalReference,
    expirationInMinutes: body.expirationInMinutes,
    ...(body.webhookUrl !== undefined && { webhookUrl: body.webhookUrl }),
    payer: body.payer,
    ...(body.openFinance !== undefined && { openFinanceRedirectUrl: body.openFinance.redirectUrl }),
    locationPrefix: `${host}/pix/qr/${key}`,
    paymentUrlPrefix: `${url.protocol}//${host}/open-finance/${key}`,
    locationKey: key,
    payerPolicy: principal.credentials.payerPolicy,
  });
  return operationResponse(result, (created: Created) =>
    withQrCodeImage(created, 'pixData', body.includeQrCodeImage),
  );
}

export const createCashIn = route(
  {
    method: 'post',
    path: '/cash-in',
    operationId: 'createCashIn',
    summary: 'Create a Cash-In',
    description:
      'Creates a charge. Standard flow: the answer carries `pixData.copyAndPaste` (a dynamic BR ' +
      'Code whose location serves the signed charge) and, unless `includeQrCodeImage` is false, the QR ' +
      'code of exactly that string as Base64 PNG. On a real partner (a declared `bcb-api-pix` partner) ' +
      '`copyAndPaste` is the `pixCopiaECola` its PSP returned when the charge was registered (`PUT ' +
      "/cob/{txid}`, the payer sent as `devedor`), naming the PSP's own location, where a payer's bank " +
      "reads the payload signed by that PSP; on the sandbox partner the location is the gateway's (GET " +
      '/pix/qr/{locator}). With `openFinance` the answer carries `openFinanceData.paymentUrl` instead: ' +
      'the sandbox partner only (a staging consent page); on a real partner 422 RULE_VIOLATION, nothing ' +
      "registered. Under the client's `payerPolicy` DECLARED_PAYER the charge goes only to a partner " +
      'that reports who paid; with none, 422 RULE_VIOLATION and nothing is sent to any partner. ' +
      '`CASHIN_PAID` is posted to `webhookUrl` when the payment is confirmed (only for a payment the ' +
      "client's payer rules allow: see `paidBy`).",
    tag: TAG,
    auth: 'client',
    idempotent: true,
    body: {
      schema: CreateCashInSchema,
      examples: {
        pix: example('PIX (BR Code) flow', createCashInRequest),
        openFinance: example('Open-finance flow', createOpenFinanceCashInRequest),
      },
    },
    success: {
      '201': {
        description: 'Created: status AWAITING_PAYMENT.',
        schema: CashInCreated,
        examples: { created: example('BR Code without image', cashInCreated) },
      },
    },
    errors: ['VALIDATION_ERROR', 'DUPLICATED_EXTERNAL_REFERENCE', 'RULE_VIOLATION'],
  },
  handleCreateCashIn,
);
