// Incident lifecycle (§3.3) on generated traffic, plus the public shape, summary and scoping.
import { describe, expect, it } from 'vitest';
import type { Hypothesis } from '../../src/health/attribution/diagnosis';
import { resolveConfig } from '../../src/health/config';
import { IncidentTracker } from '../../src/health/lifecycle/lifecycle';
import {
  healthPicture,
  isVisibleTo,
  toPublicEvidence,
  toPublicIncident,
} from '../../src/health/surface/scope';
import { isoZ, WINDOW_MS } from '../../src/health/windows/window';
import { faults } from '../support/health';
import { BANKS, describeChange, F0, F1, MINUTE, onlyIncident, PARTNERS, runScenario } from './helpers';

const PUBLIC_KEYS = [
  'incidentId',
  'origin',
  'operation',
  'status',
  'severity',
  'confidence',
  'originClass',
  'startedAt',
  'detectedAt',
  'recoveredAt',
  'resolvedAt',
  'updatedAt',
  'affectedPartners',
  'summary',
];

describe('incident lifecycle', () => {
  it('a deepening degradation goes ACTIVE -> WORSENING (twice) -> RECOVERING -> RESOLVED', () => {
    const deepening = {
      ...faults.partnerFailure(PARTNERS[1], 'CASH_OUT', F0, F0 + 90 * MINUTE, 0.3),
      steps: [
        { at: F0 + 30 * MINUTE, failRate: 0.65 },
        { at: F0 + 60 * MINUTE, failRate: 1 },
      ],
    };
    const { changes } = runScenario([deepening]);
    const all = onlyIncident(changes, 'BANKING_PARTNER', PARTNERS[1], 'CASH_OUT');
    const trail = all.map(describeChange).join('\n');
    expect(all[0]!.incident.severity, trail).toBe('DEGRADED');
    const worsening = all.filter((c) => c.incident.status === 'WORSENING');
    expect(
      worsening.map((c) => c.incident.severity),
      trail,
    ).toEqual(['SEVERELY_DEGRADED', 'UNAVAILABLE']);
    // Each rise is confirmed by two windows of the new step, so it lands within 15 minutes of the step.
    expect(worsening[0]!.incident.updatedAt! > isoZ(F0 + 30 * MINUTE)).toBe(true);
    expect(worsening[0]!.incident.updatedAt! <= isoZ(F0 + 45 * MINUTE)).toBe(true);
    expect(worsening[1]!.incident.updatedAt! > isoZ(F0 + 60 * MINUTE)).toBe(true);
    expect(worsening[1]!.incident.updatedAt! <= isoZ(F0 + 75 * MINUTE)).toBe(true);
    expect(all.at(-1)!.change).toBe('RESOLVED');
    expect(all.at(-1)!.incident.severity).toBe('UNAVAILABLE');
  });

  it('opens on the second anomalous window with startedAt = first window, detectedAt = its end', () => {
    const { changes } = runScenario([faults.partnerFailure(PARTNERS[0], 'CASH_OUT', F0, F1, 0.8)]);
    const d = changes[0]!;
    expect(d.change).toBe('DETECTED');
    expect(d.incident.status).toBe('ACTIVE');
    expect(d.incident.startedAt).toBe(isoZ(F0));
    expect(d.incident.detectedAt).toBe(isoZ(F0 + 2 * WINDOW_MS));
    expect(d.incident.updatedAt).toBeNull();
    expect(d.incident.recoveredAt).toBeNull();
    expect(d.incident.resolvedAt).toBeNull();
    expect(d.evidence.length).toBeGreaterThan(0);
  });

  it('resolves after exactly 3 normal windows: RECOVERING at the first, RESOLVED at the third', () => {
    const { changes } = runScenario([faults.partnerFailure(PARTNERS[0], 'CASH_OUT', F0, F1, 0.8)]);
    const all = onlyIncident(changes, 'BANKING_PARTNER', PARTNERS[0], 'CASH_OUT');
    const recovering = all.filter((c) => c.incident.status === 'RECOVERING');
    expect(recovering).toHaveLength(1);
    expect(recovering[0]!.incident.recoveredAt).toBe(isoZ(F1));
    expect(recovering[0]!.incident.updatedAt).toBe(isoZ(F1 + WINDOW_MS));
    const resolved = all.at(-1)!;
    expect(resolved.change).toBe('RESOLVED');
    expect(resolved.incident.status).toBe('RESOLVED');
    expect(resolved.incident.recoveredAt).toBe(isoZ(F1));
    expect(resolved.incident.resolvedAt).toBe(isoZ(F1 + 3 * WINDOW_MS));
    expect(all.indexOf(resolved) - all.indexOf(recovering[0]!)).toBe(1);
  });

  it('a relapse while RECOVERING returns to ACTIVE under the same incident, and needs 3 new normal windows', () => {
    const gapStart = F0 + 60 * MINUTE;
    const { changes } = runScenario([
      faults.partnerFailure(PARTNERS[0], 'CASH_OUT', F0, gapStart, 0.8),
      faults.partnerFailure(PARTNERS[0], 'CASH_OUT', gapStart + 2 * WINDOW_MS, F1, 0.8),
    ]);
    const all = onlyIncident(changes, 'BANKING_PARTNER', PARTNERS[0], 'CASH_OUT');
    const statuses = all.map((c) => c.incident.status);
    expect(statuses.slice(0, 4)).toEqual(['ACTIVE', 'RECOVERING', 'ACTIVE', 'RECOVERING']);
    expect(all[2]!.incident.recoveredAt).toBeNull();
    expect(all.at(-1)!.incident.resolvedAt).toBe(isoZ(F1 + 3 * WINDOW_MS));
  });

  it('gives stable ids: the same replay gives the same id, another start another id', () => {
    const a = runScenario([faults.partnerFailure(PARTNERS[0], 'CASH_OUT', F0, F1, 0.8)]).changes;
    const b = runScenario([faults.partnerFailure(PARTNERS[0], 'CASH_OUT', F0, F1, 0.8)]).changes;
    const c = runScenario([
      faults.partnerFailure(PARTNERS[0], 'CASH_OUT', F0 + 30 * MINUTE, F1, 0.8),
    ]).changes;
    expect(a[0]!.incident.incidentId).toMatch(/^inc_[0-9a-f]{16}$/);
    expect(b[0]!.incident.incidentId).toBe(a[0]!.incident.incidentId);
    expect(c[0]!.incident.incidentId).not.toBe(a[0]!.incident.incidentId);
  });
});

describe('one-window blips at the pattern level', () => {
  const cfg = resolveConfig();
  const hyp = (key = 'BANKING_PARTNER:90000001'): Hypothesis => ({
    key,
    kind: 'partner',
    id: '90000001',
    members: [],
    originType: 'BANKING_PARTNER',
    originId: '90000001',
    families: ['errors'],
    judged: true,
    severity: 'UNAVAILABLE',
    confidence: 'HIGH',
    originClass: 'OBSERVED',
    reachedPartners: ['90000001'],
    signal: null,
    evidence: [],
  });
  const step = (t: IncidentTracker, w: number, hs: Hypothesis[]) =>
    t.step({
      op: 'CASH_OUT',
      windowIndex: w,
      hypotheses: hs,
      warm: true,
      diagnoseOpen: () => ({ ...hyp(), families: [] }),
      clientsFor: () => [],
    });

  it('never opens on one window, nor on two non-consecutive windows, and opens on two in a row', () => {
    const t = new IncidentTracker(cfg);
    expect(step(t, 100, [hyp()])).toEqual([]);
    expect(step(t, 101, [])).toEqual([]);
    expect(step(t, 102, [hyp()])).toEqual([]);
    expect(step(t, 103, [hyp('BANKING_PARTNER:90000002')])).toEqual([]);
    const opened = step(t, 104, [hyp('BANKING_PARTNER:90000002')]);
    expect(opened.map((c) => c.change)).toEqual(['DETECTED']);
    expect(opened[0]!.incident.startedAt).toBe(isoZ(103 * WINDOW_MS));
  });
});

describe('public shape, summary and scope', () => {
  const merchant = runScenario([faults.merchantCollapse('client-c', 'CASH_IN', F0, F1)]).changes;
  const partner = runScenario([faults.partnerFailure(PARTNERS[2], 'CASH_OUT', F0, F1, 0.8)]).changes;
  const bank = runScenario([faults.institutionErrors(BANKS[0]!, F0, F1, 0.8)]).changes;

  it('projects exactly the §2.5 fields, UTC Z timestamps and nulls', () => {
    for (const c of [...merchant, ...partner, ...bank]) {
      const p = toPublicIncident(c.incident);
      expect(Object.keys(p)).toEqual(PUBLIC_KEYS);
      expect(Object.keys(p.origin)).toEqual(['type', 'id', 'displayName']);
      for (const t of [p.startedAt, p.detectedAt, p.recoveredAt, p.resolvedAt, p.updatedAt]) {
        if (t !== null) expect(t).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      }
      expect(JSON.stringify(p)).not.toMatch(/affectedClientIds|patternKey|cohortIspbs|evidence/);
    }
  });

  it('writes Portuguese summaries that never name a client', () => {
    const m = merchant[0]!.incident.summary;
    expect(m).toMatch(/sua operação/);
    expect(m).toMatch(/recebimentos PIX/);
    expect(partner[0]!.incident.summary).toMatch(/parceiro bancário Banco Parceiro Gama \(ISPB 90000003\)/);
    expect(bank[0]!.incident.summary).toMatch(/instituição Banco Pagador 01/);
    for (const c of [...merchant, ...partner, ...bank]) expect(c.incident.summary).not.toMatch(/client-/);
    expect(merchant.at(-1)!.incident.summary).toMatch(/Resolvido às 13:15 BRT/);
  });

  it('keeps evidence to deviations and z (no volumes), and MERCHANT evidence to the client itself', () => {
    for (const c of [...merchant, ...partner, ...bank]) {
      for (const e of toPublicEvidence(c.evidence)) {
        expect(Object.keys(e)).toEqual(['observedAt', 'metric', 'entity', 'deviationPercent', 'z']);
        expect(e.observedAt).toMatch(/:[0-5][05]:00Z$/);
      }
    }
    const ev = merchant.flatMap((c) => c.evidence);
    expect(ev.length).toBeGreaterThan(0);
    expect(ev.every((e) => e.entity.type === 'MERCHANT' && e.entity.id === 'client-c')).toBe(true);
    expect(partner.flatMap((c) => c.evidence).some((e) => e.entity.type === 'MERCHANT')).toBe(false);
  });

  it('scopes visibility: MERCHANT to its client, partners to their clients, banks to clients with traffic', () => {
    const m = merchant[0]!.incident;
    const p = partner[0]!.incident;
    const b = bank[0]!.incident;
    expect(isVisibleTo(m, { clientId: 'client-c', partnerIspbs: [PARTNERS[0], PARTNERS[2]] })).toBe(true);
    expect(isVisibleTo(m, { clientId: 'client-a', partnerIspbs: [PARTNERS[0], PARTNERS[1]] })).toBe(false);
    expect(isVisibleTo(p, { clientId: 'client-d', partnerIspbs: [PARTNERS[2]] })).toBe(true);
    expect(isVisibleTo(p, { clientId: 'client-b', partnerIspbs: [PARTNERS[1]] })).toBe(false);
    expect(isVisibleTo(b, { clientId: 'client-b', partnerIspbs: [PARTNERS[1]] })).toBe(true);

    const picture = healthPicture(
      [m, p, b],
      { clientId: 'client-c', partnerIspbs: [PARTNERS[0], PARTNERS[2]] },
      F0,
    );
    expect(picture.incidents.map((i) => i.origin.type).sort()).toEqual(['BANKING_PARTNER', 'MERCHANT']);
    expect(picture.externalIncidents.map((i) => i.origin.type)).toEqual(['PAYER_INSTITUTION']);
    expect(picture.status).toBe('UNAVAILABLE');
    expect(picture.blocks.map((x) => x.operation)).toEqual(['CASH_IN', 'CASH_OUT']);
    const other = healthPicture([m], { clientId: 'client-b', partnerIspbs: [PARTNERS[1]] }, F0);
    expect(other).toMatchObject({ status: 'HEALTHY', incidents: [], externalIncidents: [] });
  });
});
