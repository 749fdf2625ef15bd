/**
 * PUT /admin/partners/{ispb}/webhook: register our callback URL at a real partner. (Fault injection
 * into the sandbox partners is staging-only: ./handlers-faults.ts.)
 */

import { requireOperator } from '../../http/admin-auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import { parseWith } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { log } from '../../infra/log';
import type { BcbApiPixPartner } from '../../partners/bcb-api-pix/adapter';
import { declaredPartners, PartnerConfigError, webhookAuthOf } from '../../partners/config';
import { bcbPartner } from '../../partners/port-registry';
import { PartnerPathSchema, PartnerWebhookSchema } from './schemas';

/**
 * PUT /admin/partners/{ispb}/webhook: tells a real partner where its Pix callbacks go. The URL is
 * built here, never typed by the operator, so it always carries the authentication the partner's
 * declaration configures; one without any is refused rather than registered.
 */
export async function handleRegisterPartnerWebhook(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireOperator(request, env);
  const { ispb } = parseWith(PartnerPathSchema, { ispb: request.params.ispb ?? '' });
  const declared = declaredPartners(env).find((p) => p.ispb === ispb && p.kind === 'bcb-api-pix');
  if (!declared) throw new ProblemError('NOT_FOUND', `No real settlement partner with ISPB ${ispb}`);
  const { baseUrl } = parseWith(PartnerWebhookSchema, await readJsonObject(request));
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
    answer = await bcbPartner(env, ispb)!.registerWebhook(url);
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
  return json({
    ispb,
    webhookUrl: auth.secret === undefined ? url : `${base}/***`,
    authentication: auth.secret === undefined ? 'mTLS' : 'secretPath',
    registeredAt: new Date().toISOString(),
  });
}
