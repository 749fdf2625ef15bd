/** PIX health operations (docs/contract.md, PIX health). */
import * as v from 'valibot';
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { parameter } from '../../openapi/parameters';
import { Problem } from '../../openapi/problems';
import type * as health from './openapi-responses';
import { HealthPicture, IncidentDetail, IncidentPage } from './openapi-responses';

const TAG = 'PIX health';

const incident = {
  incidentId: 'inc_9f2c1e7a4b',
  origin: { type: 'BANKING_PARTNER', id: '42273459', displayName: 'Beta Pagamentos Instantâneos S.A.' },
  operation: 'CASH_OUT',
  status: 'ACTIVE',
  severity: 'SEVERELY_DEGRADED',
  confidence: 'HIGH',
  originClass: 'OBSERVED',
  startedAt: '2026-11-21T13:05:00.000Z',
  detectedAt: '2026-11-21T13:16:00.000Z',
  recoveredAt: null,
  resolvedAt: null,
  updatedAt: '2026-11-21T13:16:00.000Z',
  affectedPartners: 1,
  summary: 'Falhas de envio concentradas no parceiro de liquidação Beta Pagamentos Instantâneos S.A.',
};

const unavailable = {
  '503': {
    description:
      'PIX_HEALTH_UNAVAILABLE: the health data could not be read (not the state of PIX). Retry after 60 s.',
    schema: Problem,
    contentType: 'application/problem+json',
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', const: 60 } } },
  },
};

export const healthOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/health/pix',
    operationId: 'getPixHealth',
    summary: 'PIX health picture',
    description:
      'The picture of the moment, safe to poll once a minute: status per block plus open incidents, split into `incidents` (origins the client depends on directly: CONNECTPSP, its BANKING_PARTNERs, its own MERCHANT) and `externalIncidents` (PAYER_INSTITUTION, PAYER_COHORT, PIX_SYSTEMIC). 204 before the engine produced its first picture.',
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
  {
    method: 'get',
    path: '/health/pix/incidents',
    operationId: 'listPixIncidents',
    summary: 'List incidents',
    description:
      'Confirmed incidents in the client’s scope that overlap the window, most recent first, in one flat list.',
    tag: TAG,
    auth: 'client',
    parameters: [
      parameter(
        'from',
        'query',
        v.pipe(v.string(), v.isoTimestamp()),
        'ISO 8601 UTC; default `to` minus 7 days.',
      ),
      parameter(
        'to',
        'query',
        v.pipe(v.string(), v.isoTimestamp()),
        'ISO 8601 UTC; default now. At most 92 days after `from`.',
      ),
      parameter(
        'status',
        'query',
        v.string(),
        'Comma-separated ACTIVE, WORSENING, RECOVERING, RESOLVED; case-insensitive.',
      ),
      parameter('page', 'query', v.pipe(v.number(), v.integer(), v.minValue(1)), 'Page number, default 1.'),
      parameter(
        'pageSize',
        'query',
        v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)),
        'Page size 1..200, default 50.',
      ),
    ],
    success: {
      '200': {
        description: 'One page with the total over all pages and the effective window (UTC).',
        schema: IncidentPage,
        examples: {
          page: example('One incident', {
            items: [incident],
            total: 1,
            page: 1,
            pageSize: 50,
            from: '2026-11-14T13:20:00.000Z',
            to: '2026-11-21T13:20:00.000Z',
          }),
        },
      },
      ...unavailable,
    },
    errors: [
      'invalid-window',
      'invalid-status',
      'invalid-page',
      'invalid-page-size',
      'PIX_HEALTH_UNAVAILABLE',
    ],
  },
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
];

/** The response bodies of this resource, as documented (clients and tests type with these). */
export type HealthPictureBody = v.InferOutput<typeof health.HealthPicture>;
export type IncidentPageBody = v.InferOutput<typeof health.IncidentPage>;
