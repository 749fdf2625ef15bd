/** GET /health/pix (docs/contract.md, PIX health): the picture of the moment, in the client's scope. */
import * as v from 'valibot';
import { openIncidents, pictureState } from '../../db/health';
import { healthPicture, type IncidentRecord } from '../../health';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { read, scopeOf } from './scope';
import { BlockStatus, incident, Operation, PixIncident, TAG, Utc, unavailable } from './shared';

export const HealthPicture = named(
  'HealthPicture',
  v.strictObject({
    generatedAt: Utc,
    status: BlockStatus,
    blocks: v.array(v.strictObject({ operation: Operation, status: BlockStatus })),
    incidents: v.array(PixIncident),
    externalIncidents: v.array(PixIncident),
  }),
);

export type HealthPictureBody = v.InferOutput<typeof HealthPicture>;

/**
 * The picture is polled (once a minute is plenty) by every client, and it changes only when a
 * 5-minute window closes: each isolate reads the open incidents from D1 at most once per
 * PICTURE_TTL_MS and scopes them per client from memory.
 */
export const PICTURE_TTL_MS = 5_000;
let platformPicture: { at: number; open: IncidentRecord[] | null } | undefined;

async function openIncidentsCached(env: Env, now: number): Promise<IncidentRecord[] | null> {
  if (platformPicture && now - platformPicture.at < PICTURE_TTL_MS) return platformPicture.open;
  const open = (await pictureState(env)) ? ((await openIncidents(env)) as unknown as IncidentRecord[]) : null;
  platformPicture = { at: now, open };
  return open;
}

async function handleHealthPicture({ env, principal }: Input<{ principal: true }>): Promise<Response> {
  const now = Date.now();
  const picture = await read(async () => {
    const open = await openIncidentsCached(env, now);
    return open === null ? undefined : healthPicture(open, scopeOf(principal), now);
  });
  return picture ? json(picture) : new Response(null, { status: 204 });
}

export const getPixHealth = route(
  {
    method: 'get',
    path: '/health/pix',
    operationId: 'getPixHealth',
    summary: 'PIX health picture',
    description:
      'The picture of the moment, safe to poll once a minute: status per block plus open ' +
      'incidents, split into `incidents` (origins the client depends on directly: CONNECTPSP, its ' +
      'BANKING_PARTNERs, its own MERCHANT) and `externalIncidents` (PAYER_INSTITUTION, PAYER_COHORT, ' +
      'PIX_SYSTEMIC). 204 before the engine produced its first picture.',
    tag: TAG,
    auth: 'client',
    success: {
      '200': {
        description: 'The picture.',
        schema: HealthPicture,
        examples: {
          degraded: example('One partner degraded', {
            generatedAt: '2026-11-21T13:20:00.000Z',
            status: 'SEVERELY_DEGRADED',
            blocks: [
              { operation: 'CASH_IN', status: 'HEALTHY' },
              { operation: 'CASH_OUT', status: 'SEVERELY_DEGRADED' },
            ],
            incidents: [incident],
            externalIncidents: [],
          }),
        },
      },
      '204': { description: 'No picture yet (the engine has closed no window).' },
      ...unavailable,
    },
    errors: ['PIX_HEALTH_UNAVAILABLE'],
  },
  handleHealthPicture,
);
