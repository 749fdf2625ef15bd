/**
 * Who posts a partner callback (`/partners/{ispb}/webhook[/{secret}]/pix|rec|cobr`): a declared
 * `bcb-api-pix` partner, authenticated by its client certificate or its secret path segment
 * (src/partners/inbound-auth.ts) before any of the body is read. Another ISPB answers 404 like any
 * unknown route; a callback that does not authenticate, 401.
 */

import { ProblemError } from '../../http/errors';
import type { ApiRequest } from '../../http/request-context';
import { errorFields, log } from '../../infra/log';
import type { BcbApiPixPartner } from '../../partners/bcb-api-pix/adapter';
import { declaredPartners, PartnerConfigError, webhookAuthOf } from '../../partners/config';
import { callbackAuthentic } from '../../partners/inbound-auth';
import { bcbPartner } from '../../partners/port-registry';

function adapterOf(env: Env, ispb: string) {
  try {
    return bcbPartner(env, ispb);
  } catch (error) {
    if (!(error instanceof PartnerConfigError)) throw error;
    log('error', 'partner callback for a partner configured incompletely', { ispb, ...errorFields(error) });
    throw new ProblemError('SERVICE_UNAVAILABLE', 'This partner cannot be reached now; retry later');
  }
}

/** The partner whose authenticated callback this is, or the problem to answer. */
export function authenticatedPartner(request: ApiRequest, env: Env): BcbApiPixPartner {
  const ispb = String(request.params.ispb ?? '');
  const pathname = new URL(request.url).pathname;
  const declared = declaredPartners(env).find((p) => p.ispb === ispb && p.kind === 'bcb-api-pix');
  if (!declared) throw new ProblemError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
  const secret = request.params.secret === undefined ? undefined : String(request.params.secret);
  if (!callbackAuthentic(request, webhookAuthOf(env, declared), secret, env)) {
    log('warn', 'partner callback refused: not authenticated', { ispb, secretPath: secret !== undefined });
    throw new ProblemError('UNAUTHORIZED', 'This callback is not authenticated as the partner');
  }
  const partner = adapterOf(env, ispb);
  if (!partner) throw new ProblemError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
  return partner;
}
