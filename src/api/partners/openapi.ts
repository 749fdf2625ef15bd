/**
 * Callbacks from real settlement partners (API Pix `{webhookUrl}/pix`, ./handlers.ts). Their body is
 * a hint only: nothing in it is trusted.
 */
import * as v from 'valibot';
import { example } from '../../openapi/examples';
import { inlineSchema } from '../../openapi/json-schema';
import type { OperationSpec } from '../../openapi/operation';
import { ispbParameter, parameter } from '../../openapi/parameters';
import { PartnerWebhook } from '../admin/openapi-responses';
import { PartnerWebhookSchema } from '../admin/schemas';
import { PixCallbackSchema } from './schemas';

const OUTCOMES = [
  'paid',
  'already-paid',
  'unmatched',
  'amount-mismatch',
  'not-payable',
  'duplicate',
  'refund-checked',
  'returned',
  'devolution-recorded',
  'already-recorded',
  'not-confirmed',
  'deferred',
] as const;

const Result = inlineSchema(
  v.object({
    pix: v.array(
      v.object({
        endToEndId: v.string(),
        outcomes: v.pipe(
          v.array(v.picklist(OUTCOMES)),
          v.description(
            'What the partner confirmed and what was done: `paid` (Cash-In PAID, `CASHIN_PAID` sent), `already-paid`, `unmatched` (no Cash-In of ours), `amount-mismatch`, `not-payable` and `duplicate` (no Cash-In can take it: held for the payer as an unapplied receipt, see GET /admin/unapplied, and returned through the partner devolution; the Cash-In is untouched), `refund-checked` (our refund read again at the partner), `returned` (a bank return: Cash-In REFUNDED), `devolution-recorded` (a further devolution booked), `already-recorded` (this devolution, or this unapplied receipt, is booked already), `not-confirmed` (the partner does not know this Pix: nothing moved), `deferred` (beyond the first 50 Pix of one callback: not read now; the sweep of received Pix reads it within minutes).',
          ),
        ),
      }),
    ),
  }),
);

const DESCRIPTION = `A real partner's API Pix webhook: a POST of \`{ "pix": [ … ] }\` whenever Pix are received or a devolution ends. The body is a **hint** only: each \`endToEndId\` is read again from the partner (\`GET /pix/{e2eid}\`) and only the partner's answer moves money, once (by end-to-end id and devolution id), so a forged or replayed callback moves nothing. An ISPB that is not a declared \`bcb-api-pix\` partner answers 404 \`NOT_FOUND\` like any unknown route; a callback that does not authenticate answers 401 \`UNAUTHORIZED\`; 503 \`SERVICE_UNAVAILABLE\` (\`Retry-After\`) when the partner could not be asked about some Pix (the others are applied), so the PSP sends it again.`;

const callback = (spec: Pick<OperationSpec, 'path' | 'operationId' | 'summary' | 'auth' | 'parameters'>) =>
  ({
    method: 'post',
    tag: 'Settlement partners',
    description: `${DESCRIPTION}\n\n${
      spec.auth === 'partner'
        ? "Authentication: the partner's client certificate (mTLS at the edge; the partner's `webhookCertSubject`, and `webhookCertIssuer` when set, must match)."
        : "Authentication: the partner's secret `PARTNER_<ISPB>_WEBHOOK_SECRET` as the `secret` path segment, for partners that cannot present a client certificate."
    }`,
    body: {
      schema: PixCallbackSchema,
      examples: {
        received: example('One Pix received', {
          pix: [
            {
              endToEndId: 'E60701190202611251200abcdefghijk',
              txid: 'K3b9Qe2LmN8pR4sT6uV1wXyZa0cDfGhJk',
              valor: '150.25',
              horario: '2026-11-25T15:00:00.000Z',
            },
          ],
        }),
      },
    },
    success: { '200': { description: 'Every Pix named was read again and applied.', schema: Result } },
    errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
    ...spec,
  }) satisfies OperationSpec;

export const partnerOperations: OperationSpec[] = [
  callback({
    path: '/partners/{ispb}/webhook/pix',
    operationId: 'partnerPixCallback',
    summary: 'Pix callback from a partner (mTLS)',
    auth: 'partner',
    parameters: [ispbParameter],
  }),
  callback({
    path: '/partners/{ispb}/webhook/{secret}/pix',
    operationId: 'partnerPixCallbackSecretPath',
    summary: 'Pix callback from a partner (secret path)',
    auth: 'partnerSecret',
    parameters: [
      ispbParameter,
      parameter(
        'secret',
        'path',
        v.string(),
        "The partner's webhook secret (PARTNER_<ISPB>_WEBHOOK_SECRET).",
      ),
    ],
  }),
  {
    method: 'put',
    path: '/admin/partners/{ispb}/webhook',
    operationId: 'registerPartnerWebhook',
    tag: 'Settlement partners',
    auth: 'operator',
    summary: "Register this gateway's callback URL at a real partner",
    description:
      "Calls the partner's API Pix `PUT /webhook/{chave}` for its charge key, with the URL its callbacks must use: the secret path when `PARTNER_<ISPB>_WEBHOOK_SECRET` is set, else the mTLS path (which needs `webhookCertSubject`). A partner with neither answers 422 `RULE_VIOLATION` (a URL nobody could authenticate is never registered). An ISPB that is not a declared `bcb-api-pix` partner answers 404 `NOT_FOUND`; a partner that refuses or cannot be reached, 503 `SERVICE_UNAVAILABLE`. Repeating it is harmless.",
    parameters: [ispbParameter],
    body: {
      schema: PartnerWebhookSchema,
      examples: { origin: example('The public origin', { baseUrl: 'https://api.connectpsp.example' }) },
    },
    success: {
      '200': {
        description: 'The partner accepted the URL.',
        schema: PartnerWebhook,
        examples: {
          registered: example('Registered with a secret path', {
            ispb: '09089356',
            webhookUrl: 'https://api.connectpsp.example/partners/09089356/webhook/***',
            authentication: 'secretPath',
            registeredAt: '2026-11-25T12:00:00.000Z',
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'RULE_VIOLATION', 'SERVICE_UNAVAILABLE'],
  },
];
