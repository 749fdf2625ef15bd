// The incident summary says in plain words why this origin was blamed when no single window shows it:
// a cohort of banks too small to judge alone, pooled; a partner's failure rate rising as a trend; a
// deviation that persists over windows together (issue 18).
import { describe, expect, it } from 'vitest';
import { buildSummary, type SummaryInput } from '../../src/health/summary';

const base: SummaryInput = {
  originType: 'BANKING_PARTNER',
  originId: '90000003',
  knownName: 'Banco Parceiro Gama',
  operation: 'CASH_OUT',
  status: 'ACTIVE',
  severity: 'DEGRADED',
  originClass: 'OBSERVED',
  startedAtMs: Date.parse('2026-11-25T15:00:00Z'),
  recoveredAtMs: null,
  resolvedAtMs: null,
  affectedPartners: 1,
  cohortNames: [],
  signal: {
    family: 'errors',
    deviation: 3,
    impact: 0.3,
    observed: 0.32,
    expected: 0.02,
    code: 'PAYEE_BANK_REJECTED',
  },
};

describe('summary: why this origin', () => {
  it('a cohort: each bank too small alone, together short over the pooled windows', () => {
    const text = buildSummary({
      ...base,
      originType: 'PAYER_COHORT',
      originId: '81000143,81000156,81000169',
      operation: 'CASH_IN',
      cohortNames: ['Banco 12', 'Banco 13', 'Banco 14'],
      signal: {
        family: 'outcomes',
        deviation: -0.7,
        impact: 0.7,
        observed: 9,
        expected: 30,
        code: null,
        basis: 'pooled',
        windows: 6,
      },
    });
    expect(text).toMatch(/grupo de 3 instituições \(Banco 12, Banco 13, Banco 14\)/);
    expect(text).toMatch(/Nenhuma dessas instituições, sozinha, tem movimento suficiente para um alerta/);
    expect(text).toMatch(/somadas nas últimas 6 janelas de 5 minutos, ficaram 70% abaixo do esperado/);
    expect(text).toMatch(/As demais instituições operam normalmente/);
  });

  it('a ramp: the failure rate rising as a trend before one window crosses the limit', () => {
    const text = buildSummary({ ...base, signal: { ...base.signal!, basis: 'trend', windows: 4 } });
    expect(text).toMatch(/parceiro bancário Banco Parceiro Gama \(ISPB 90000003\)/);
    expect(text).toMatch(
      /Apontado por tendência: a taxa de falhas subiu de forma contínua por 4 janelas de 5 minutos/,
    );
    expect(text).toMatch(/os demais parceiros operam normalmente/);
  });

  it('a persisting deviation: windows together, none alone', () => {
    const text = buildSummary({ ...base, signal: { ...base.signal!, basis: 'pooled', windows: 2 } });
    expect(text).toMatch(
      /Apontado pelo desvio repetido em 2 janelas seguidas de 5 minutos: somadas, ficam fora do padrão/,
    );
  });

  it('keeps saying what the incident was opened on after later windows show it alone', () => {
    const text = buildSummary({ ...base, status: 'RESOLVED', detectedBy: { basis: 'trend', windows: 3 } });
    expect(text).toMatch(/Apontado por tendência: a taxa de falhas subiu de forma contínua por 3 janelas/);
  });

  it('one window alone needs no such sentence', () => {
    const text = buildSummary(base);
    expect(text).not.toMatch(/janelas de 5 minutos/);
    expect(text).toMatch(/falhas em 32% das transações \(normal: 2%\), principalmente PAYEE_BANK_REJECTED/);
  });
});
