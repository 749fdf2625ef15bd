/**
 * The operator's reading of an incident, in the console's language (English), built from the incident's
 * structured fields. The incident's own `summary` is the Portuguese diagnosis clients read
 * (docs/contract.md, PIX health); the console does not show it, so one page speaks one language.
 */
import type {
  EvidenceItem,
  IncidentStatus,
  Operation,
  OriginType,
  PixIncident,
  Severity,
} from '../health/types';
import { count, decimal } from './format';
import { esc } from './html';

const SEVERITY: Record<Severity, string> = {
  DEGRADED: 'Degradation',
  SEVERELY_DEGRADED: 'Severe degradation',
  UNAVAILABLE: 'Unavailability',
};

const OPERATION: Record<Operation, string> = {
  CASH_IN: 'Cash-In (payments received)',
  CASH_OUT: 'Cash-Out (payments sent)',
};

/** Where the fault lies, said the way the origin types are documented (docs/contract.md, PIX health). */
function where(type: OriginType, name: string, id: string): string {
  const named = name && name !== id ? `${name} (ISPB ${id})` : `ISPB ${id}`;
  switch (type) {
    case 'BANKING_PARTNER':
      return `at banking partner ${named}; the other partners run normally`;
    case 'PAYER_INSTITUTION':
      return `at institution ${named}, outside ConnectPSP`;
    case 'PAYER_COHORT':
      return `in a group of institutions (${name || id}) failing together, outside ConnectPSP`;
    case 'MERCHANT':
      return `in one client's own operation (${name || id}); the rest of the platform runs normally`;
    case 'CONNECTPSP':
      return 'in the ConnectPSP platform, across every banking partner';
    case 'PIX_SYSTEMIC':
      return 'across the PIX system, every partner and institution; the cause is outside ConnectPSP';
  }
}

const STATUS: Record<IncidentStatus, string> = {
  ACTIVE: 'Ongoing.',
  WORSENING: 'Getting worse.',
  RECOVERING: 'Metrics back to normal; under watch before it closes.',
  RESOLVED: 'Resolved.',
};

/** The evidence window furthest from normal, as the one-line reason. */
function strongest(evidence: readonly EvidenceItem[]): string {
  if (evidence.length === 0) return '';
  const top = evidence.reduce((a, b) => (Math.abs(b.z) > Math.abs(a.z) ? b : a));
  return ` Strongest signal: ${esc(top.metric)}, z ${decimal(top.z)}.`;
}

/** HTML: the operator's one-paragraph summary of an incident (its times are on the line under it, in BRT). */
export function incidentText(i: PixIncident, evidence: readonly EvidenceItem[] = []): string {
  const n = i.affectedPartners ?? 0;
  const partners =
    n === 0 ? '' : n === 1 ? ' through 1 banking partner' : ` through ${count(n)} banking partners`;
  return (
    `${esc(SEVERITY[i.severity] ?? i.severity)} ${esc(where(i.origin.type, i.origin.displayName, i.origin.id))}, ` +
    `affecting ${esc(OPERATION[i.operation] ?? i.operation)}${partners}. ` +
    `${esc(STATUS[i.status] ?? i.status)}${strongest(evidence)}`
  );
}
