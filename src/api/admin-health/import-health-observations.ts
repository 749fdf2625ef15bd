/**
 * POST /admin/health/observations: observations onto the health queue, like the ones every
 * transaction emits (warming a new deployment from history; ids make a repeated import harmless).
 */
import * as v from 'valibot';
import { appendAudit } from '../../db/audit';
import { importTimeProblem } from '../../health/windows/intake';
import { parseObservation } from '../../health/windows/observation';
import { changeRecord, recorded } from '../../http/audit';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { validationError } from '../../http/validation';
import { example } from '../../openapi/examples';
import { named } from '../../schemas/named';
import { operator } from '../admin/shared';
import { route } from '../route-table';
import { ImportObservationsSchema } from './schemas';

const ObservationsQueued = named(
  'ObservationsQueued',
  v.object({
    queued: v.pipe(v.number(), v.integer(), v.description('Observations put on the health queue.')),
  }),
);

/** Queue sendBatch takes at most 100 messages. */
const QUEUE_SEND_MAX = 100;

async function handleImportObservations({
  request,
  rc,
  body,
}: Input<{ body: typeof ImportObservationsSchema }>): Promise<Response> {
  const { env } = rc;
  const { observations } = body;
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
  for (let i = 0; i < observations.length; i += QUEUE_SEND_MAX) {
    await env.HEALTH_SIGNALS.sendBatch(observations.slice(i, i + QUEUE_SEND_MAX).map((body) => ({ body })));
  }
  // The change is the queue's: no transaction of ours holds it, so the record is written once the
  // queue took every batch, before the answer, naming what was queued.
  const after = {
    queued: observations.length,
    firstId: observations[0]?.id,
    lastId: observations.at(-1)?.id,
  };
  await appendAudit(
    env,
    changeRecord(rc, 'importHealthObservations', new URL(request.url).pathname, { after }),
  );
  recorded(rc);
  return json({ queued: observations.length }, 202);
}

export const importHealthObservations = route(
  operator({
    role: 'ADMIN',
    method: 'post',
    path: '/admin/health/observations',
    operationId: 'importHealthObservations',
    summary: 'Import observations into the PIX health analyzer',
    description:
      'Up to 250 observations per call go onto the health queue, like the ones every transaction ' +
      'emits. A new deployment imports the platform history it replaces (days of it) so the analyzer ' +
      'starts warm: history older than anything it has seen bootstraps it, and the live traffic waits ' +
      'until the history stops arriving. An id already counted is skipped, so an import can be repeated ' +
      'after a failure. Imports are history: each `at` must be within the last 30 days and at most 5 ' +
      'minutes ahead of the gateway clock, else the whole batch answers 400 `VALIDATION_ERROR` naming ' +
      '`observations.<i>.at`.',
    body: {
      schema: ImportObservationsSchema,
      examples: {
        history: example('Two observations of one Cash-Out', {
          observations: [
            {
              id: 'legacy:2026-11-20:000001:c',
              at: '2026-11-20T13:00:01.000Z',
              clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
              operation: 'CASH_OUT',
              partnerIspb: '31880826',
              institutionIspb: '60701190',
              event: 'CREATED',
            },
            {
              id: 'legacy:2026-11-20:000001:s',
              at: '2026-11-20T13:00:02.400Z',
              clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
              operation: 'CASH_OUT',
              partnerIspb: '31880826',
              institutionIspb: '60701190',
              event: 'SETTLED',
              latencyMs: 1400,
            },
          ],
        }),
      },
    },
    success: {
      '202': {
        description: 'Queued; the analyzer counts them within seconds.',
        schema: ObservationsQueued,
        examples: { queued: example('Queued', { queued: 2 }) },
      },
    },
    errors: ['VALIDATION_ERROR'],
  }),
  handleImportObservations,
);
