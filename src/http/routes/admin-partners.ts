/** POST/DELETE /admin/partners/{ispb}/faults (staging): make a sandbox partner misbehave, or stop it. */
import { partnerByIspb } from '../../partners/catalog';
import { clearFaults, injectFault } from '../../partners/faults';
import { PartnerFaultSchema } from '../../schemas/admin';
import { requireOperator } from '../admin-auth';
import { readJsonObject } from '../body';
import type { ApiRequest, RequestContext } from '../context';
import { ProblemError } from '../errors';
import { json } from '../json';
import { requireStaging } from '../staging';
import { parseWith } from '../validation';

export async function handleInjectFault(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireStaging(request, env);
  requireOperator(request, env);
  const ispb = String(request.params.ispb ?? '');
  if (!partnerByIspb(ispb)) throw new ProblemError('NOT_FOUND', `No settlement partner with ISPB ${ispb}`);
  const body = parseWith(PartnerFaultSchema, await readJsonObject(request));
  const now = Date.now();
  const fault = {
    ispb,
    operation: body.operation,
    failureRatePpm: Math.round(body.failureRate * 1_000_000),
    failureCode: body.failureCode ?? null,
    latencyMs: body.latencyMs,
    endsAt: now + body.minutes * 60_000,
  };
  await injectFault(env, fault, now);
  return json(
    {
      ispb,
      operation: fault.operation,
      failureRate: body.failureRate,
      ...(body.failureCode !== undefined && { failureCode: body.failureCode }),
      latencyMs: body.latencyMs,
      startsAt: new Date(now).toISOString(),
      endsAt: new Date(fault.endsAt).toISOString(),
    },
    201,
  );
}

export async function handleClearFaults(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireStaging(request, env);
  requireOperator(request, env);
  const ispb = String(request.params.ispb ?? '');
  if (!partnerByIspb(ispb)) throw new ProblemError('NOT_FOUND', `No settlement partner with ISPB ${ispb}`);
  await clearFaults(env, ispb);
  return new Response(null, { status: 204 });
}
