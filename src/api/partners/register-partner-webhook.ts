/**
 * PUT /admin/partners/{ispb}/webhook: tells a real partner where its Pix callbacks go (the
 * operator's call; the callbacks themselves are ./pix-callback.ts).
 */
import * as v from 'valibot';
import { appendAudit } from '../../db/audit';
import { present } from '../../domain/present';
import { changeRecord, recorded } from '../../http/audit';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { parseWith } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { log } from '../../infra/log';
import { example } from '../../openapi/examples';
import { ispbParameter } from '../../openapi/parameters';
import type { BcbApiPixPartner } from '../../partners/bcb-api-pix/adapter';
import { declaredPartners, PartnerConfigError, webhookAuthOf } from '../../partners/config';
import { bcbPartner } from '../../partners/port-registry';
import { PartnerPathSchema } from '../../schemas/common';
import { Ispb, UtcTimestamp } from '../../schemas/fields';
import { named } from '../../schemas/named';
import { route } from '../route-table';

/** Where this gateway is reachable from the partner. */
const PartnerWebhookSchema = named(
  'PartnerWebhookRequest',
  v.strictObject({
    baseUrl: v.pipe(
      v.string('baseUrl must be a string'),
      v.regex(
        /^https?:\/\/[^/?#\s]+\/?$/,
        'baseUrl must be a scheme and host only, e.g. https://api.example.com',
      ),
    ),
  }),
  {
    baseUrl:
      "This gateway's public origin as the partner reaches it. The partner is told " +
      '`{baseUrl}/partners/{ispb}/webhook` (mTLS) or `{baseUrl}/partners/{ispb}/webhook/{secret}` ' +
      '(secret path) and posts to it + `/pix`.',
  },
);

const PartnerWebhook = named(
  'PartnerWebhook',
  v.object({
    ispb: Ispb,
    webhookUrl: v.pipe(
      v.string(),
      v.description(
        'The URL registered at the partner (a secret path segment shown as `***`); it posts to it + `/pix`.',
      ),
    ),
    authentication: v.pipe(
      v.picklist(['mTLS', 'secretPath']),
      v.description("How the partner's callbacks authenticate: its client certificate, or the secret path."),
    ),
    registeredAt: UtcTimestamp,
  }),
);

/**
 * PUT /admin/partners/{ispb}/webhook: tells a real partner where its Pix callbacks go. The URL is
 * built here, never typed by the operator, so it always carries the authentication the partner's
 * declaration configures; one without any is refused rather than registered.
 */
async function handleRegisterPartnerWebhook({
  request,
  rc,
  body,
}: Input<{ body: typeof PartnerWebhookSchema }>): Promise<Response> {
  const { env } = rc;
  const { ispb } = parseWith(PartnerPathSchema, { ispb: request.params.ispb ?? '' });
  const declared = declaredPartners(env).find((p) => p.ispb === ispb && p.kind === 'bcb-api-pix');
  if (!declared) throw new ProblemError('NOT_FOUND', `No real settlement partner with ISPB ${ispb}`);
  const { baseUrl } = body;
  requireAllowedWebhookUrl(env, baseUrl, 'baseUrl');
  const auth = webhookAuthOf(env, declared);
  if (auth.secret === undefined && auth.certSubject === undefined)
    throw new ProblemError(
      'RULE_VIOLATION',
      `Partner ${ispb} has no callback authentication: set PARTNER_${ispb}_WEBHOOK_SECRET or its webhookCertSubject first`,
    );
  const base = `${baseUrl.replace(/\/$/, '')}/partners/${ispb}/webhook`;
  const url = auth.secret === undefined ? base : `${base}/${auth.secret}`;
  let answer: Awaited<ReturnType<BcbApiPixPartner['registerWebhook']>>;
  try {
    answer = await present(bcbPartner(env, ispb), `partner ${ispb}'s adapter`).registerWebhook(url);
  } catch (error) {
    if (!(error instanceof PartnerConfigError)) throw error;
    throw new ProblemError('SERVICE_UNAVAILABLE', error.message);
  }
  if (!answer.ok) {
    log('warn', 'partner refused the webhook registration', { ispb, failureCode: answer.failureCode });
    throw new ProblemError(
      'SERVICE_UNAVAILABLE',
      `Partner ${ispb} did not register it (${answer.failureCode})`,
    );
  }
  const registered = {
    webhookUrl: auth.secret === undefined ? url : `${base}/***`,
    authentication: auth.secret === undefined ? 'mTLS' : 'secretPath',
  } as const;
  // The change lives at the partner: its record is written as soon as the partner confirmed, before
  // the answer, with the URL as the answer shows it (the secret path segment masked).
  await appendAudit(
    env,
    changeRecord(rc, 'registerPartnerWebhook', new URL(request.url).pathname, { after: registered }),
  );
  recorded(rc);
  return json({ ispb, ...registered, registeredAt: new Date().toISOString() });
}

export const registerPartnerWebhook = route(
  {
    method: 'put',
    path: '/admin/partners/{ispb}/webhook',
    operationId: 'registerPartnerWebhook',
    tag: 'Settlement partners',
    auth: 'operator',
    role: 'OPERATOR',
    summary: "Register this gateway's callback URL at a real partner",
    description:
      "Calls the partner's API Pix `PUT /webhook/{chave}` for its charge key, with the URL its " +
      'callbacks must use: the secret path when `PARTNER_<ISPB>_WEBHOOK_SECRET` is set, else the mTLS ' +
      'path (which needs `webhookCertSubject`). A partner with neither answers 422 `RULE_VIOLATION` (a ' +
      'URL nobody could authenticate is never registered). An ISPB that is not a declared `bcb-api-pix` ' +
      'partner answers 404 `NOT_FOUND`; a partner that refuses or cannot be reached, 503 ' +
      '`SERVICE_UNAVAILABLE`. Repeating it is harmless.',
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
  handleRegisterPartnerWebhook,
);
