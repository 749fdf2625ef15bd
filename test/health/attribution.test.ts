// Each origin type of §2.5 detected and attributed on generated traffic, and symptoms kept quiet.
import { describe, expect, it } from 'vitest';
import type { WindowReport } from '../../src/health/config';
import type { IncidentChange } from '../../src/health/types';
import { isoZ } from '../../src/health/windows/window';
import { faults } from '../support/health';
import {
  BANKS,
  DAY3,
  describeChange,
  detected,
  F0,
  F1,
  HOUR,
  onlyIncident,
  PARTNERS,
  runScenario,
} from './helpers';

function first(changes: IncidentChange[]) {
  return changes[0]!.incident;
}

describe('attribution on generated traffic', () => {
  it('one partner failing across banks is BANKING_PARTNER, confirmed by PROVIDER_UNAVAILABLE', () => {
    const { changes } = runScenario([faults.partnerFailure(PARTNERS[2], 'CASH_OUT', F0, F1, 0.8)]);
    const inc = first(onlyIncident(changes, 'BANKING_PARTNER', PARTNERS[2], 'CASH_OUT'));
    expect(inc.originClass).toBe('CONFIRMED');
    expect(inc.confidence).toBe('HIGH');
    expect(inc.affectedPartners).toBe(1);
    // Clients routed through that partner (c, d, e) are in scope; the others are not.
    expect(inc.affectedClientIds).toEqual(['client-c', 'client-d', 'client-e']);
  });

  it('one bank failing transfers on every partner is PAYER_INSTITUTION, OBSERVED/CONFIRMED', () => {
    const { changes } = runScenario([faults.institutionErrors(BANKS[0]!, F0, F1, 0.8)]);
    const inc = first(onlyIncident(changes, 'PAYER_INSTITUTION', BANKS[0]!, 'CASH_OUT'));
    expect(inc.originClass).toBe('CONFIRMED');
    expect(inc.affectedPartners).toBe(3);
  });

  it('a silent payer bank is PAYER_INSTITUTION, INFERRED (expected activity absent)', () => {
    const { changes } = runScenario([faults.institutionSilence(BANKS[1]!, F0, F1)]);
    const inc = first(onlyIncident(changes, 'PAYER_INSTITUTION', BANKS[1]!, 'CASH_IN'));
    expect(inc.originClass).toBe('INFERRED');
    expect(inc.severity).toBe('UNAVAILABLE');
    expect(inc.affectedPartners).toBe(3);
    expect(changes[0]!.evidence.some((e) => e.metric === 'outcomeVolume' && e.entity.partnerIspb)).toBe(true);
  });

  it('symptoms of a silent bank (partner, client, platform deficits, expiries everywhere) open nothing', () => {
    // The largest bank (~40 % of payers): every partner, client and the platform lose ~40 % of their
    // settlements and, 35 minutes later, expiries jump everywhere. Only the bank may be an incident.
    const { changes } = runScenario([faults.institutionSilence(BANKS[0]!, F0, F1)], {
      until: DAY3 + 20 * HOUR,
    });
    onlyIncident(changes, 'PAYER_INSTITUTION', BANKS[0]!, 'CASH_IN');
    expect(changes.map((c) => c.change)).toEqual(['DETECTED', 'UPDATED', 'RESOLVED']);
  });

  it('those symptoms really are anomalous on their own; attribution is what keeps them quiet', () => {
    // Guard against a vacuous pass of the previous test.
    const reports: WindowReport[] = [];
    runScenario([faults.institutionSilence(BANKS[0]!, F0, F1)], {
      until: F1 + HOUR,
      config: { onWindow: (r) => r.operation === 'CASH_IN' && reports.push(r) },
    });
    const during = reports.filter((r) => r.windowStart >= isoZ(F0) && r.windowStart < isoZ(F1));
    const kinds = new Set(during.flatMap((r) => r.anomalous.map((a) => a.kind)));
    expect([...kinds].sort()).toEqual(['client', 'institution', 'partner', 'platform']);
    // The symptoms are never origins: no partner, client or platform-wide hypothesis at any window.
    const origins = during.flatMap((r) => r.origins);
    expect(origins.filter((o) => o === `PAYER_INSTITUTION:${BANKS[0]}`).length).toBeGreaterThan(
      during.length - 3,
    );
    expect(origins.filter((o) => /^(BANKING_PARTNER|MERCHANT|PLATFORM)/.test(o))).toEqual([]);
    // Expiries rise everywhere once the unpaid charges expire (~35 min later), and keep rising after the
    // bank is back: never an origin.
    const expiring = reports.filter((r) =>
      r.anomalous.some((a) => a.kind === 'platform' && a.families.includes('expiry')),
    );
    expect(expiring.length).toBeGreaterThan(6);
    expect(expiring.some((r) => r.windowStart >= isoZ(F1))).toBe(true);
    expect(
      expiring.flatMap((r) => r.origins).filter((o) => /^(BANKING_PARTNER|MERCHANT|PLATFORM)/.test(o)),
    ).toEqual([]);
  });

  it('several banks moving together are one PAYER_COHORT', () => {
    const cohort = [BANKS[2]!, BANKS[3]!, BANKS[4]!];
    const { changes } = runScenario([faults.cohort(cohort, 'CASH_OUT', F0, F1, 0.8)]);
    const ids = new Set(changes.map((c) => c.incident.incidentId));
    expect(ids.size, changes.map(describeChange).join('\n')).toBe(1);
    const last = changes.at(-1)!.incident;
    expect(last.origin.type).toBe('PAYER_COHORT');
    expect(last.cohortIspbs).toEqual(cohort);
    expect(last.origin.id).toBe(cohort.join(','));
    expect(last.originClass).toBe('CONFIRMED');
  });

  it("one client's collapsing volume is MERCHANT with origin.id = clientId", () => {
    const { changes } = runScenario([faults.merchantCollapse('client-c', 'CASH_IN', F0, F1)]);
    const inc = first(onlyIncident(changes, 'MERCHANT', 'client-c', 'CASH_IN'));
    expect(inc.affectedClientIds).toEqual(['client-c']);
    expect(inc.origin.displayName).toBe('Sua operação');
    expect(inc.originClass).toBe('INFERRED');
  });

  it("one client's collapsing conversion (charges created, not paid) is MERCHANT, corroborated by expiries", () => {
    const { changes } = runScenario([faults.merchantConversionCollapse('client-a', F0, F1)]);
    const incs = onlyIncident(changes, 'MERCHANT', 'client-a', 'CASH_IN');
    expect(incs.at(-1)!.incident.originClass).toBe('CORROBORATED');
  });

  it('the gateway not taking transactions is CONNECTPSP (intake collapse), on both operations', () => {
    const { changes } = runScenario([faults.connectpspIntakeOutage(F0, F1)]);
    const found = detected(changes).map((c) => `${c.incident.operation}:${c.incident.origin.type}`);
    expect(found.sort()).toEqual(['CASH_IN:CONNECTPSP', 'CASH_OUT:CONNECTPSP']);
    expect(detected(changes).every((c) => c.incident.confidence === 'HIGH')).toBe(true);
  });

  it('failures with our own PROCESSING_ERROR on every partner are CONNECTPSP, CONFIRMED', () => {
    const { changes } = runScenario([faults.connectpspProcessingErrors('CASH_OUT', F0, F1)]);
    const inc = first(onlyIncident(changes, 'CONNECTPSP', 'CONNECTPSP', 'CASH_OUT'));
    expect(inc.originClass).toBe('CONFIRMED');
    expect(inc.affectedPartners).toBe(3);
  });

  it('network-side failures on every partner with normal intake are PIX_SYSTEMIC', () => {
    const { changes } = runScenario([faults.pixSystemic('CASH_OUT', F0, F1)]);
    const inc = first(onlyIncident(changes, 'PIX_SYSTEMIC', 'PIX', 'CASH_OUT'));
    expect(inc.originClass).toBe('CORROBORATED');
    expect(inc.confidence).toBe('HIGH');
  });

  it('payments stopping everywhere while charges are still created is PIX_SYSTEMIC on Cash-In', () => {
    const { changes } = runScenario([faults.pixSystemic('CASH_IN', F0, F1)]);
    onlyIncident(changes, 'PIX_SYSTEMIC', 'PIX', 'CASH_IN');
  });

  it('attributes the same faults the same way on other seeds', () => {
    for (const seed of [2, 3]) {
      const partner = runScenario([faults.partnerFailure(PARTNERS[0], 'CASH_OUT', F0, F1, 0.8)], { seed });
      onlyIncident(partner.changes, 'BANKING_PARTNER', PARTNERS[0], 'CASH_OUT');
      const silence = runScenario([faults.institutionSilence(BANKS[2]!, F0, F1)], { seed });
      onlyIncident(silence.changes, 'PAYER_INSTITUTION', BANKS[2]!, 'CASH_IN');
    }
  });
});
