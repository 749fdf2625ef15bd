// Shared types of the PIX health engine. Public shapes follow the OpenAPI document and docs/contract.md, PIX
// health.

export type Operation = 'CASH_IN' | 'CASH_OUT';
export const OPERATIONS: readonly Operation[] = ['CASH_IN', 'CASH_OUT'];

export type ObservationEvent = 'CREATED' | 'SETTLED' | 'FAILED' | 'EXPIRED' | 'RETURNED';

/** One transaction outcome as queued by the gateway (docs/contract.md, PIX health). */
export interface Observation {
  at: string;
  clientId: string;
  customerId?: string;
  operation: Operation;
  partnerIspb: string;
  /** Payer bank on CASH_IN, payee bank on CASH_OUT; absent when unknown. */
  institutionIspb?: string;
  event: ObservationEvent;
  failureCode?: string;
  latencyMs?: number;
}

export type OriginType =
  | 'CONNECTPSP'
  | 'BANKING_PARTNER'
  | 'PAYER_INSTITUTION'
  | 'PAYER_COHORT'
  | 'MERCHANT'
  | 'PIX_SYSTEMIC';

export type IncidentStatus = 'ACTIVE' | 'WORSENING' | 'RECOVERING' | 'RESOLVED';
export type Severity = 'DEGRADED' | 'SEVERELY_DEGRADED' | 'UNAVAILABLE';
export type Confidence = 'LOW' | 'MEDIUM' | 'HIGH';
export type OriginClass = 'OBSERVED' | 'INFERRED' | 'CORROBORATED' | 'CONFIRMED' | 'UNKNOWN';

/** The incident object exactly as the API publishes it (GET /health/pix/incidents/{id}, webhooks, replay). */
export interface PixIncident {
  incidentId: string;
  origin: { type: OriginType; id: string; displayName: string };
  operation: Operation;
  status: IncidentStatus;
  severity: Severity;
  confidence: Confidence;
  originClass: OriginClass;
  startedAt: string;
  detectedAt: string;
  recoveredAt: string | null;
  resolvedAt: string | null;
  updatedAt: string | null;
  affectedPartners: number;
  summary: string;
}

/** evidence[].entity: the spec leaves the fields open; we use the origin vocabulary. */
export interface EvidenceEntity {
  type: OriginType;
  id: string;
  /** Set when the evidence is one partner's slice of the entity (e.g. an institution seen through one partner). */
  partnerIspb?: string;
}

export interface EvidenceItem {
  /** Start of the 5-minute window, UTC. */
  observedAt: string;
  metric: string;
  entity: EvidenceEntity;
  /** (observed - expected) / expected; null without an expectation. */
  deviationPercent: number | null;
  z: number;
}

/**
 * The engine's incident record: the public fields plus what the API layer needs to scope it.
 * Never serialise this to a client; project it with `toPublicIncident` first.
 */
export interface IncidentRecord extends PixIncident {
  /** Clients whose traffic runs through the origin (MERCHANT: exactly its own clientId). */
  affectedClientIds: string[];
  /** ISPBs of the settlement partners reached (length = affectedPartners). */
  affectedPartnerIspbs: string[];
  /** PAYER_COHORT members (ISPBs); empty otherwise. */
  cohortIspbs: string[];
  /** Deduplication key: origin kind + id + operation. */
  patternKey: string;
  /** Most recent evidence, newest last, capped (config.maxEvidencePerIncident). */
  evidence: EvidenceItem[];
}

export type IncidentChangeKind = 'DETECTED' | 'UPDATED' | 'RESOLVED';

export interface IncidentChange {
  change: IncidentChangeKind;
  /** A copy of the record after the change (internal fields included). */
  incident: IncidentRecord;
  /** Evidence gathered since the previous change of this incident, oldest first. */
  evidence: EvidenceItem[];
}
