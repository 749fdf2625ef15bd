/**
 * POST/DELETE /admin/partners/{ispb}/faults (staging only): make a sandbox partner misbehave, or stop
 * it. Bound by the staging entry's route table only (./routes-staging.ts), so neither these handlers
 * nor the fault store are in the production bundle.
 */

import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import { requireStaging } from '../../http/staging';
import { parseWith } from '../../http/validation';
import { partnerByIspb } from '../../partners/catalog';
import { clearFaults, injectFault } from '../../partners/faults';
import { PartnerPathSchema } from '../../schemas/common';
import { PartnerFaultSchema } from './schemas';

export async function handleInjectFault(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireStaging(request, env);
  const { ispb } = parseWith(PartnerPathSchema, { ispb: request.params.ispb ?? '' });
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
  const { ispb } = parseWith(PartnerPathSchema, { ispb: request.params.ispb ?? '' });
  if (!partnerByIspb(ispb)) throw new ProblemError('NOT_FOUND', `No settlement partner with ISPB ${ispb}`);
  await clearFaults(env, ispb);
  return new Response(null, { status: 204 });
}
