// What a client may see (docs/contract.md, PIX health): the public projection of an incident, visibility
// rules, and the GET /health/pix picture. The engine's records carry internal scoping fields; nothing leaves
// the worker without going through `toPublicIncident`.
import { maxSeverity } from '../scoring/evaluate';
import type { EvidenceItem, IncidentRecord, Operation, PixIncident, Severity } from '../types';
import { isoZ } from '../windows/window';

/**
 * Exactly the public incident fields (OpenAPI getPixIncident), in contract order; nullable fields stay null.
 */
export function toPublicIncident(r: PixIncident): PixIncident {
  return {
    incidentId: r.incidentId,
    origin: { type: r.origin.type, id: r.origin.id, displayName: r.origin.displayName },
    operation: r.operation,
    status: r.status,
    severity: r.severity,
    confidence: r.confidence,
    originClass: r.originClass,
    startedAt: r.startedAt,
    detectedAt: r.detectedAt,
    recoveredAt: r.recoveredAt,
    resolvedAt: r.resolvedAt,
    updatedAt: r.updatedAt,
    affectedPartners: r.affectedPartners,
    summary: r.summary,
  };
}

/**
 * Evidence as OpenAPI getPixIncident publishes it (copies; `partnerIspb` only when set). The engine keeps
 * items oldest first; the detail endpoint wants newest first (the default).
 */
export function toPublicEvidence(items: readonly EvidenceItem[], newestFirst = true): EvidenceItem[] {
  const out = items.map((e) => ({
    observedAt: e.observedAt,
    metric: e.metric,
    entity: e.entity.partnerIspb
      ? { type: e.entity.type, id: e.entity.id, partnerIspb: e.entity.partnerIspb }
      : { type: e.entity.type, id: e.entity.id },
    deviationPercent: e.deviationPercent,
    z: e.z,
  }));
  return newestFirst ? out.reverse() : out;
}

export interface ClientScope {
  clientId: string;
  /** ISPBs of the settlement partners the client routes through. */
  partnerIspbs: readonly string[];
}

/**
 * May this client see the incident (list, detail, webhook)? Platform and PIX incidents: everyone.
 * Partner incidents: clients routed through that partner. Institution and cohort incidents: clients with
 * traffic in that operation. MERCHANT: only the client itself.
 */
export function isVisibleTo(r: IncidentRecord, scope: ClientScope): boolean {
  switch (r.origin.type) {
    case 'CONNECTPSP':
    case 'PIX_SYSTEMIC':
      return true;
    case 'BANKING_PARTNER':
      return scope.partnerIspbs.includes(r.origin.id);
    case 'MERCHANT':
      return r.origin.id === scope.clientId;
    case 'PAYER_INSTITUTION':
    case 'PAYER_COHORT':
      return r.affectedClientIds.includes(scope.clientId);
  }
}

/**
 * docs/contract.md, PIX health: `incidents` = origins the client depends on directly; the rest is
 * `externalIncidents`.
 */
export function isDirectDependency(r: PixIncident): boolean {
  return (
    r.origin.type === 'CONNECTPSP' || r.origin.type === 'BANKING_PARTNER' || r.origin.type === 'MERCHANT'
  );
}

export type BlockStatus = 'HEALTHY' | Severity;

export interface HealthPicture {
  generatedAt: string;
  status: BlockStatus;
  blocks: { operation: Operation; status: BlockStatus }[];
  incidents: PixIncident[];
  externalIncidents: PixIncident[];
}

/** The GET /health/pix body for one client from the engine's open incidents. */
export function healthPicture(
  records: readonly IncidentRecord[],
  scope: ClientScope,
  nowMs: number,
): HealthPicture {
  const open = records.filter((r) => r.status !== 'RESOLVED' && isVisibleTo(r, scope));
  const worst = (list: readonly IncidentRecord[]): BlockStatus =>
    list.length === 0 ? 'HEALTHY' : list.map((r) => r.severity).reduce(maxSeverity);
  return {
    generatedAt: isoZ(nowMs),
    status: worst(open),
    blocks: (['CASH_IN', 'CASH_OUT'] as const).map((operation) => ({
      operation,
      status: worst(open.filter((r) => r.operation === operation)),
    })),
    incidents: open.filter(isDirectDependency).map(toPublicIncident),
    externalIncidents: open.filter((r) => !isDirectDependency(r)).map(toPublicIncident),
  };
}
