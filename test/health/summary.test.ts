// The summary and the evidence say in plain words why this origin was blamed and not another (issue 18):
// a cohort of small banks found only by pooling them, and a partner found by its failure trend (CUSUM).
import { describe, expect, it } from 'vitest';
import { buildSummary, type SummaryInput } from '../../src/health/lifecycle/summary';
import { faults } from '../support/health';
import {
  analyzerAt,
  BANKS,
  DAY3,
  F0,
  feed,
  HOUR,
  MINUTE,
  onlyIncident,
  QUIET_WORLD,
  runScenario,
} from './helpers';

const base: SummaryInput = {
  originType: 'PAYER_COHORT',
  originId: '80000005,80000008',
  knownName: null,
  operation: 'CASH_IN',
  status: 'ACTIVE',
  severity: 'SEVERELY_DEGRADED',
  originClass: 'INFERRED',
  startedAtMs: F0,
  recoveredAtMs: null,
  resolvedAtMs: null,
  affectedPartners: 3,
  cohortNames: ['Banco Pagador 06', 'Banco Pagador 09'],
  signal: {
    family: 'outcomes',
    deviation: -0.7,
    impact: 0.7,
    observed: 6,
    expected: 20,
    code: null,
    basis: { kind: 'pooled', windows: 3 },
  },
};

describe('summary: why this origin', () => {
  it('a pooled cohort says its banks are too small alone, were summed, and why not a partner or us', () => {
    const s = buildSummary(base);
    expect(s).toContain(
      'liquidações 70% abaixo do esperado, somando essas instituições nos últimos 15 minutos',
    );
    expect(s).toContain('Cada uma tem volume pequeno demais para ser avaliada sozinha');
    expect(s).toContain('as demais instituições e os parceiros bancários operam normalmente');
    expect(s).toContain('e não um parceiro bancário nem a ConnectPSP');
  });

  it('a cohort seen bank by bank says no partner explains it', () => {
    const s = buildSummary({ ...base, signal: { ...base.signal!, basis: null } });
    expect(s).not.toContain('somando');
    expect(s).toContain('nenhum parceiro bancário explica a falha');
    expect(s).toContain('e não um parceiro bancário nem a ConnectPSP');
  });

  it('a small merchant blamed for silence says no transaction came for N windows, and the rest is normal', () => {
    const merchant: SummaryInput = {
      ...base,
      originType: 'MERCHANT',
      originId: 'client-x',
      cohortNames: [],
      signal: {
        family: 'created',
        deviation: -1,
        impact: 1,
        observed: 0,
        expected: 17,
        code: null,
        basis: { kind: 'pooled', windows: 3 },
      },
    };
    const s = buildSummary(merchant);
    expect(s).toContain('nenhuma transação nova em 3 janelas seguidas de 5 minutos (15 minutos)');
    expect(s).toContain('enquanto o restante da plataforma opera normalmente');
    expect(buildSummary({ ...merchant, signal: { ...merchant.signal!, impact: 0.6 } })).not.toContain(
      'nenhuma transação nova',
    );
  });

  it('a partner confirmed by its trend says so, and why not the platform', () => {
    const partner: SummaryInput = {
      ...base,
      originType: 'BANKING_PARTNER',
      originId: '90000001',
      knownName: 'Banco Parceiro Alfa',
      operation: 'CASH_OUT',
      severity: 'DEGRADED',
      originClass: 'OBSERVED',
      cohortNames: [],
      signal: { family: 'errors', deviation: 8, impact: 0.2, observed: 0.22, expected: 0.02, code: null },
    };
    expect(buildSummary(partner)).not.toContain('tendência');
    const s = buildSummary({ ...partner, trend: { kind: 'trend', windows: 4 } });
    expect(s).toContain(
      'Detectado pela tendência: a taxa de falhas subiu em 4 das últimas janelas de 5 minutos',
    );
    expect(s).toContain('nenhuma janela sozinha bastava como prova, mas a alta sustentada sim');
    expect(s).toContain('os demais parceiros operam normalmente');
    expect(s).toContain('e não a ConnectPSP nem o sistema PIX');
  });
});

describe('summary and evidence on generated traffic', () => {
  it('small payer banks losing 70 % of their payments together: a pooled PAYER_COHORT that says why', () => {
    const members = BANKS.slice(5, 9);
    const { changes } = runScenario([faults.cohort(members, 'CASH_IN', F0, F0 + 60 * MINUTE, 0.7)]);
    const inc = changes[0]!.incident;
    onlyIncident(changes, 'PAYER_COHORT', inc.origin.id, 'CASH_IN');
    for (const m of inc.cohortIspbs) expect(members).toContain(m);
    expect(inc.summary).toContain('Cada uma tem volume pequeno demais para ser avaliada sozinha');
    expect(inc.summary).toMatch(/somando essas instituições nos últimos \d+ minutos/);
    expect(inc.summary).toContain('e não um parceiro bancário nem a ConnectPSP');
    expect(changes[0]!.evidence.some((e) => e.metric === 'outcomeVolumePooled')).toBe(true);
    // The public origin names exactly the banks of the summary.
    expect(inc.origin.id).toBe(inc.cohortIspbs.join(','));
  });

  it("a small partner's ramp confirmed by its failure trend says so in the summary and evidence", () => {
    // Quiet world: ~20 transfers a window at the partner, failures climbing 0 -> 80 % over 90 minutes.
    const partner = QUIET_WORLD.partners[0]!.ispb;
    const ramp = faults.ramp(
      faults.partnerFailure(partner, 'CASH_OUT', F0, F0 + 120 * MINUTE),
      90 * MINUTE,
      0.8,
    );
    const from = DAY3 + 13 * HOUR;
    const changes = feed(analyzerAt(from, 1, QUIET_WORLD), QUIET_WORLD, 1, from, DAY3 + 17 * HOUR, [ramp]);
    onlyIncident(changes, 'BANKING_PARTNER', partner, 'CASH_OUT');
    const detected = changes[0]!;
    expect(detected.evidence.some((e) => e.metric === 'failureRateTrend')).toBe(true);
    expect(detected.incident.summary).toMatch(
      /Detectado pela tendência: a taxa de falhas subiu em \d+ das últimas janelas de 5 minutos/,
    );
    expect(detected.incident.summary).toContain('e não a ConnectPSP nem o sistema PIX');
  });
});
