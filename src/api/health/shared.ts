/**
 * What the PIX health operations share (docs/contract.md, PIX health): the incident as documented,
 * its example, and the 503 every read may answer.
 */
import * as v from 'valibot';
import { Problem } from '../../openapi/problem-schemas';

export const Utc = v.pipe(v.string(), v.isoTimestamp());
const NullableUtc = v.nullable(Utc);
const Severity = v.picklist(['DEGRADED', 'SEVERELY_DEGRADED', 'UNAVAILABLE']);
export const BlockStatus = v.picklist(['HEALTHY', 'DEGRADED', 'SEVERELY_DEGRADED', 'UNAVAILABLE']);
export const Operation = v.picklist(['CASH_IN', 'CASH_OUT']);
const OriginType = v.picklist([
  'CONNECTPSP',
  'BANKING_PARTNER',
  'PAYER_INSTITUTION',
  'PAYER_COHORT',
  'MERCHANT',
  'PIX_SYSTEMIC',
]);

export const PixIncident = v.strictObject({
  incidentId: v.string(),
  origin: v.strictObject({ type: OriginType, id: v.string(), displayName: v.string() }),
  operation: Operation,
  status: v.picklist(['ACTIVE', 'WORSENING', 'RECOVERING', 'RESOLVED']),
  severity: Severity,
  confidence: v.picklist(['LOW', 'MEDIUM', 'HIGH']),
  originClass: v.picklist(['OBSERVED', 'INFERRED', 'CORROBORATED', 'CONFIRMED', 'UNKNOWN']),
  startedAt: Utc,
  detectedAt: Utc,
  recoveredAt: NullableUtc,
  resolvedAt: NullableUtc,
  updatedAt: NullableUtc,
  affectedPartners: v.pipe(v.number(), v.integer()),
  summary: v.string(),
});

export const EvidenceItem = v.strictObject({
  observedAt: Utc,
  metric: v.string(),
  entity: v.strictObject({ type: OriginType, id: v.string(), partnerIspb: v.optional(v.string()) }),
  deviationPercent: v.nullable(v.number()),
  z: v.number(),
});

export const TAG = 'PIX health';

export const incident = {
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

/** Any read may fail: the health data, not PIX, is unavailable then. */
export const unavailable = {
  '503': {
    description:
      'PIX_HEALTH_UNAVAILABLE: the health data could not be read (not the state of PIX). Retry after 60 s.',
    schema: Problem,
    contentType: 'application/problem+json',
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', const: 60 } } },
  },
};
