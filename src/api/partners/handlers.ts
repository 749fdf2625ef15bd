/**
 * A real partner's Pix webhook callbacks (API Pix `{webhookUrl}/pix`): `POST
 * /partners/{ispb}/webhook/pix` over mTLS, or `POST /partners/{ispb}/webhook/{secret}/pix`. An
 * ISPB that is not a declared `bcb-api-pix` partner answers 404 NOT_FOUND like any unknown route;
 * a declared partner's callback that does not authenticate answers 401 UNAUTHORIZED. Each Pix
 * named is read again from the partner before anything moves (src/cron/partner-notices.ts).
 */
import { applyPixHints } from '../../cron/partner-notices';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import { parseWith } from '../../http/validation';
import { errorFields, log } from '../../infra/log';
import { declaredPartners, PartnerConfigError, webhookAuthOf } from '../../partners/config';
import { callbackAuthentic } from '../../partners/inbound-auth';
import { bcbPartner } from '../../partners/port-registry';
import { PixCallbackSchema } from './schemas';

/** Partner reads one callback may cause (a PSP groups a few Pix per callback). */
export const MAX_READS_PER_CALLBACK = 50;

function adapterOf(env: Env, ispb: string) {
  try {
    return bcbPartner(env, ispb);
  } catch (error) {
    if (!(error instanceof PartnerConfigError)) throw error;
    log('error', 'partner callback for a partner configured incompletely', { ispb, ...errorFields(error) });
    throw new ProblemError('SERVICE_UNAVAILABLE', 'This partner cannot be reached now; retry later');
  }
}

export async function handlePartnerPixCallback(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  const ispb = String(request.params.ispb ?? '');
  const pathname = new URL(request.url).pathname;
  const declared = declaredPartners(env).find((p) => p.ispb === ispb && p.kind === 'bcb-api-pix');
  if (!declared) throw new ProblemError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
  const secret = request.params.secret === undefined ? undefined : String(request.params.secret);
  if (!callbackAuthentic(request, webhookAuthOf(env, declared), secret, env)) {
    log('warn', 'partner callback refused: not authenticated', { ispb, secretPath: secret !== undefined });
    throw new ProblemError('UNAUTHORIZED', 'This callback is not authenticated as the partner');
  }
  const body = parseWith(PixCallbackSchema, await readJsonObject(request));
  const partner = adapterOf(env, ispb);
  if (!partner) throw new ProblemError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
  // Each hint costs a call to the partner: one callback asks at most MAX_READS_PER_CALLBACK, and the
  // rest are left to the sweep of received Pix (src/cron/partner-notices.ts), which reads
  // them by time window within minutes.
  const hinted = [...new Set(body.pix.map((p) => p.endToEndId))];
  const results: Record<string, string[]> = await applyPixHints(
    env,
    partner,
    hinted.slice(0, MAX_READS_PER_CALLBACK),
  );
  for (const endToEndId of hinted.slice(MAX_READS_PER_CALLBACK)) results[endToEndId] = ['deferred'];
  if (hinted.length > MAX_READS_PER_CALLBACK)
    log('warn', 'partner callback hinted more Pix than one callback reads', { ispb, hinted: hinted.length });
  const pix = Object.entries(results).map(([endToEndId, outcomes]) => ({ endToEndId, outcomes }));
  // The partner could not confirm some of them now: a non-2xx makes the PSP send the callback
  // again later (the rest are applied already and apply once), and the sweep catches them anyway.
  if (pix.some((p) => p.outcomes.includes('unavailable')))
    throw new ProblemError(
      'SERVICE_UNAVAILABLE',
      'The partner could not confirm every Pix now; retry later',
      {
        headers: { 'retry-after': '60' },
      },
    );
  return json({ pix });
}
