/** GET /health/pix/incidents/{id} (docs/contract.md, PIX health): one incident with its evidence. */
import * as v from 'valibot';
import { incidentWithEvidence } from '../../db/health';
import { toPublicIncident } from '../../health';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { parameter } from '../../openapi/parameters';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { read, visible } from './scope';
import { EvidenceItem, incident, PixIncident, TAG, unavailable } from './shared';

const IncidentDetail = named(
  'IncidentDetail',
  v.strictObject({ incident: PixIncident, evidence: v.array(EvidenceItem) }),
);

async function handleGetIncident({ request, env, principal }: Input<{ principal: true }>): Promise<Response> {
  let id: string;
  try {
    id = decodeURIComponent(String(request.params.id ?? ''));
  } catch {
    throw new ProblemError('PIX_INCIDENT_NOT_FOUND', 'No incident with this id in your scope');
  }
  if (id.trim() === '') throw new ProblemError('invalid-incident-id', 'The incident id must not be blank');
  const found = await read(() => incidentWithEvidence(env, id));
  if (!found || !visible(principal)(found.incident)) {
    throw new ProblemError('PIX_INCIDENT_NOT_FOUND', 'No incident with this id in your scope');
  }
  return json({ incident: toPublicIncident(found.incident), evidence: found.evidence });
}

export const getPixIncident = route(
  {
    method: 'get',
    path: '/health/pix/incidents/{id}',
    operationId: 'getPixIncident',
    summary: 'One incident with evidence',
    description: 'Evidence newest first. Nonexistent and out-of-scope incidents answer the same 404.',
    tag: TAG,
    auth: 'client',
    parameters: [parameter('id', 'path', v.string(), 'An incidentId.')],
    success: {
      '200': {
        description: 'The incident and its evidence.',
        schema: IncidentDetail,
        examples: {
          detail: example('With evidence', {
            incident,
            evidence: [
              {
                observedAt: '2026-11-21T13:10:00.000Z',
                metric: 'failure_rate',
                entity: { type: 'BANKING_PARTNER', id: '42273459' },
                deviationPercent: 11.4,
                z: 9.2,
              },
            ],
          }),
        },
      },
      ...unavailable,
    },
    errors: ['PIX_INCIDENT_NOT_FOUND', 'invalid-incident-id', 'PIX_HEALTH_UNAVAILABLE'],
  },
  handleGetIncident,
);
