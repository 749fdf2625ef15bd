/**
 * Operator view and control of the platform's HealthAnalyzer: import observations (warming a new
 * deployment from history; ids make a repeated import harmless), read the analyzer's state, and in
 * staging close windows on demand instead of waiting for the 5-minute alarm.
 */

import { healthAnalyzer } from '../../../durable-objects/health-stub';
import { importTimeProblem } from '../../health/windows/intake';
import { parseObservation } from '../../health/windows/observation';
import { requireOperator } from '../../http/admin-auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { json } from '../../http/json';
import { requireStaging } from '../../http/staging';
import { parseWith, validationError } from '../../http/validation';
import { AdvanceAnalyzerSchema, ImportObservationsSchema } from './schemas';

/** Queue sendBatch takes at most 100 messages. */
const QUEUE_BATCH = 100;

export async function handleImportObservations(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireOperator(request, env);
  const { observations } = parseWith(ImportObservationsSchema, await readJsonObject(request));
  const errors: Record<string, string[]> = {};
  const now = Date.now();
  observations.forEach((o, i) => {
    const parsed = parseObservation(o);
    if (!parsed.ok) errors[`observations.${i}`] = [parsed.error];
    else {
      const problem = importTimeProblem(parsed.atMs, now);
      if (problem) errors[`observations.${i}.at`] = [problem];
    }
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
  for (let i = 0; i < observations.length; i += QUEUE_BATCH) {
    await env.HEALTH_SIGNALS.sendBatch(observations.slice(i, i + QUEUE_BATCH).map((body) => ({ body })));
  }
  return json({ queued: observations.length }, 202);
}

async function analyzerState(env: Env) {
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

export async function handleAnalyzerState(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireOperator(request, env);
  return json(await analyzerState(env));
}

export async function handleAdvanceAnalyzer(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireStaging(request, env);
  requireOperator(request, env);
  const { until } = parseWith(AdvanceAnalyzerSchema, await readJsonObject(request));
  const changes = await healthAnalyzer(env).advance(Date.parse(until));
  return json({ changes, analyzer: await analyzerState(env) });
}
