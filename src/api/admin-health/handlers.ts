/**
 * The HealthAnalyzer's state as the operator reads it, and in staging closing windows on demand
 * instead of waiting for the 5-minute alarm (bound by ./routes-staging.ts alone).
 */

import { healthAnalyzer } from '../../../durable-objects/health-stub';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { requireStaging } from '../../http/staging';
import type { AdvanceAnalyzerSchema } from './schemas';

export async function analyzerState(env: Env) {
  const s = await healthAnalyzer(env).stats();
  return {
    warm: s.warm,
    bootstrapping: s.bootstrapping,
    liveFrom: s.liveFrom === null ? null : new Date(s.liveFrom).toISOString(),
    parked: s.parked,
    accepted: s.accepted,
    ingested: s.ingested,
    late: s.late,
    droppedLate: s.droppedLate,
    duplicates: s.duplicates,
    rejected: s.rejected,
    windowsClosed: s.windowsClosed,
  };
}

export async function handleAdvanceAnalyzer({
  request,
  env,
  body,
}: Input<{ body: typeof AdvanceAnalyzerSchema }>): Promise<Response> {
  requireStaging(request, env);
  const { until } = body;
  const changes = await healthAnalyzer(env).advance(Date.parse(until));
  return json({ changes, analyzer: await analyzerState(env) });
}
