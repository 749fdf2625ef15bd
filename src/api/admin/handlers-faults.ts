/**
 * POST/DELETE /admin/partners/{ispb}/faults (staging only): make a sandbox partner misbehave, or stop
 * it. Bound by the staging entry's route table only (./routes-staging.ts), so neither these handlers
 * nor the fault store are in the production bundle.
 */

import { changeRecord, recorded } from '../../http/audit';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { requireStaging } from '../../http/staging';
import { parseWith } from '../../http/validation';
import { partnerByIspb } from '../../partners/catalog';
import { clearFaults, injectFault } from '../../partners/faults';
import { PartnerPathSchema } from '../../schemas/common';
import type { PartnerFaultSchema } from './schemas';

export async function handleInjectFault({
  request,
  rc,
  body,
}: Input<{ body: typeof PartnerFaultSchema }>): Promise<Response> {
  const { env } = rc;
  requireStaging(request, env);
  const { ispb } = parseWith(PartnerPathSchema, { ispb: request.params.ispb ?? '' });
  if (!partnerByIspb(ispb)) throw new ProblemError('NOT_FOUND', `No settlement partner with ISPB ${ispb}`);
  const now = Date.now();
  const fault = {
    ispb,
    operation: body.operation,
    failureRatePpm: Math.round(body.failureRate * 1_000_000),
    failureCode: body.failureCode ?? null,
    latencyMs: body.latencyMs,
    endsAt: now + body.minutes * 60_000,
  };
  const { ispb: _, ...after } = fault;
  const path = new URL(request.url).pathname;
  await injectFault(env, fault, now, changeRecord(rc, 'injectPartnerFault', path, { after }));
  recorded(rc);
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

export async function handleClearFaults({ request, rc }: Input): Promise<Response> {
  const { env } = rc;
  requireStaging(request, env);
  const { ispb } = parseWith(PartnerPathSchema, { ispb: request.params.ispb ?? '' });
  if (!partnerByIspb(ispb)) throw new ProblemError('NOT_FOUND', `No settlement partner with ISPB ${ispb}`);
  await clearFaults(env, ispb, changeRecord(rc, 'clearPartnerFaults', new URL(request.url).pathname, {}));
  recorded(rc);
  return new Response(null, { status: 204 });
}
