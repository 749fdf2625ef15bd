// Origins: pattern keys, merging per-family origins, display names and the ranks of confidence and
// originClass (used by diagnosis and the lifecycle).

import type { Confidence, OriginClass, OriginType } from '../types';
import type { FamilyOrigin, OriginKind } from './attribution';

export function patternKey(kind: OriginKind, id: string): string {
  switch (kind) {
    case 'partner':
      return `BANKING_PARTNER:${id}`;
    case 'institution':
      return `PAYER_INSTITUTION:${id}`;
    case 'client':
      return `MERCHANT:${id}`;
    case 'cohort':
      return 'PAYER_COHORT';
    case 'platform':
      return 'PLATFORM';
  }
}

/** Merge the origins found per family into one list of distinct origins (cohort members are united). */
export function mergeOrigins(perFamily: readonly FamilyOrigin[][]): FamilyOrigin[] {
  const byKey = new Map<string, FamilyOrigin>();
  for (const list of perFamily) {
    for (const o of list) {
      const key = patternKey(o.kind, o.id);
      const prev = byKey.get(key);
      if (!prev) byKey.set(key, { ...o, members: [...o.members] });
      else if (o.kind === 'cohort') {
        prev.members = [...new Set([...prev.members, ...o.members])].sort();
        prev.id = prev.members.join(',');
        if (o.pooled) prev.pooled = o.pooled;
      }
    }
  }
  return [...byKey.values()];
}

const CONFIDENCE_RANK: Record<Confidence, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };
const CLASS_RANK: Record<OriginClass, number> = {
  UNKNOWN: 0,
  INFERRED: 1,
  OBSERVED: 2,
  CORROBORATED: 3,
  CONFIRMED: 4,
};

export function confidenceRank(c: Confidence): number {
  return CONFIDENCE_RANK[c];
}

export function originClassRank(c: OriginClass): number {
  return CLASS_RANK[c];
}

export function displayNameOf(
  type: OriginType,
  id: string,
  members: readonly string[],
  names: Record<string, string>,
) {
  switch (type) {
    case 'BANKING_PARTNER':
      return names[id] ?? `Parceiro ${id}`;
    case 'PAYER_INSTITUTION':
      return names[id] ?? `Instituição ${id}`;
    case 'PAYER_COHORT':
      return `Grupo de ${members.length} instituições`;
    case 'MERCHANT':
      return 'Sua operação';
    case 'CONNECTPSP':
      return 'ConnectPSP';
    case 'PIX_SYSTEMIC':
      return 'Sistema PIX (SPI)';
  }
}

export function originTypeOf(kind: Exclude<OriginKind, 'platform'>): OriginType {
  return kind === 'partner'
    ? 'BANKING_PARTNER'
    : kind === 'institution'
      ? 'PAYER_INSTITUTION'
      : kind === 'client'
        ? 'MERCHANT'
        : 'PAYER_COHORT';
}

/**
 * Judge one origin in the closing window. Used for this window's attributed origins and, for open
 * incidents that were not attributed this window, to see whether their origin still looks anomalous:
 * then `continuing` lists the incident's families, judged with the relaxed test (hysteresis: strict to
 * open, relaxed to stay open, so a fault hovering around the gates does not flap to RECOVERING).
 */
