/** POST /cash-out (docs/contract.md, Cash-Out lifecycle): accepted now, decided after the 202. */
import { ledgerOf } from '../../../durable-objects/stubs';
import { requestFingerprint } from '../../http/idempotency';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { example, type In } from '../../openapi/examples';
import { route } from '../route-table';
import { CashOutAccepted, CreateCashOutSchema, cashOutInput } from './schemas';
import { cashOutAccepted, TAG } from './shared';

const toPixKey: In<typeof CreateCashOutSchema> = {
  amount: 250,
  externalReference: 'saque-1',
  description: 'Saque',
  webhookUrl: 'https://loja.example.com.br/webhooks/pix',
  payee: {
    name: 'Ana Beneficiária',
    document: '12345678909',
    destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
  },
};

const toBankAccount: In<typeof CreateCashOutSchema> = {
  amount: 99.99,
  externalReference: 'saque-2',
  payee: {
    name: 'Carlos Pereira',
    document: '11222333000181',
    destination: {
      type: 'BANK_ACCOUNT',
      bankAccount: { ispb: '60746948', branch: '1234', account: '56789-0', accountType: 'CACC' },
    },
  },
};

async function handleCreateCashOut({
  env,
  principal,
  idempotencyKey,
  raw,
  body,
}: Input<{ principal: true; idempotent: true; body: typeof CreateCashOutSchema }>): Promise<Response> {
  const result = await ledgerOf(env, principal.clientId).createCashOut({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    // Only a key's replay compares request hashes: without one there is nothing to hash.
    requestHash: idempotencyKey === undefined ? '' : await requestFingerprint('POST /cash-out', '', raw),
    ...cashOutInput(body),
  });
  return operationResponse(result);
}

export const createCashOut = route(
  {
    method: 'post',
    path: '/cash-out',
    operationId: 'createCashOut',
    summary: 'Create a Cash-Out',
    description:
      'Accepted asynchronously: 202 only means accepted for processing. Balance, withdrawal ' +
      'limits, PIX key lookup, security rules and the receiving institution are checked after the 202, ' +
      'so an accepted Cash-Out can end CANCELLED with `failure.code` (for example INSUFFICIENT_FUNDS); ' +
      'insufficient balance is never an HTTP error here. The outcome always arrives as an event ' +
      '(`CASHOUT_COMPLETED`, `CASHOUT_FAILED`, later `CASHOUT_REFUNDED`).\n\nStaging: a PIX key of type ' +
      'EMAIL equal to `<failure code in lowercase>@sandbox.pix` ends CANCELLED with that code.',
    tag: TAG,
    auth: 'signed',
    idempotent: true,
    body: {
      schema: CreateCashOutSchema,
      examples: {
        pix: example('To a PIX key', toPixKey),
        bankAccount: example('To bank account data', toBankAccount),
      },
    },
    success: {
      '202': {
        description: 'Accepted: status PROCESSING.',
        schema: CashOutAccepted,
        examples: { accepted: example('Accepted', cashOutAccepted) },
      },
    },
    errors: ['VALIDATION_ERROR', 'DUPLICATED_EXTERNAL_REFERENCE'],
  },
  handleCreateCashOut,
  {
    check: ({ env, body }) => {
      if (body.webhookUrl !== undefined) requireAllowedWebhookUrl(env, body.webhookUrl);
    },
  },
);
