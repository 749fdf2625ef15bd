/** Response shapes of the PIX health endpoints (docs/contract.md, PIX health). */
import * as v from 'valibot';
import { named } from '../../schemas/named';

const Utc = v.pipe(v.string(), v.isoTimestamp());
const NullableUtc = v.nullable(Utc);
const Severity = v.picklist(['DEGRADED', 'SEVERELY_DEGRADED', 'UNAVAILABLE']);
const BlockStatus = v.picklist(['HEALTHY', 'DEGRADED', 'SEVERELY_DEGRADED', 'UNAVAILABLE']);
const Operation = v.picklist(['CASH_IN', 'CASH_OUT']);
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

export const IncidentPage = named(
  'IncidentPage',
  v.strictObject({
    items: v.array(PixIncident),
    total: v.pipe(v.number(), v.integer()),
    page: v.pipe(v.number(), v.integer()),
    pageSize: v.pipe(v.number(), v.integer()),
    from: Utc,
    to: Utc,
  }),
);

export const IncidentDetail = named(
  'IncidentDetail',
  v.strictObject({ incident: PixIncident, evidence: v.array(EvidenceItem) }),
);
