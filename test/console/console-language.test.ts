/**
 * The console speaks one language, English: an incident reads in the operator's words, built from its
 * structured fields, and the Portuguese diagnosis clients read in the incident's `summary`
 * (docs/contract.md, PIX health) is not shown. Checked on the page the console builds from its model,
 * with a summary written by the health engine itself.
 */
import { describe, expect, it } from 'vitest';
import { type DashboardModel, dashboardPage } from '../../src/console/dashboard';
import { BREAK_GLASS } from '../../src/domain/operators';
import { buildSummary } from '../../src/health/lifecycle/summary';

const visible = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

/** Words every Portuguese incident summary uses (src/health/lifecycle/summary.ts). */
const PORTUGUESE = /\b(desde|afeta|parceiros? bancários?|abaixo do esperado|Degradação|Indisponibilidade)\b/i;

const startedAtMs = Date.parse('2026-11-29T01:35:00.000Z');
const summary = buildSummary({
  originType: 'BANKING_PARTNER',
  originId: '60746948',
  knownName: 'Banco Beta',
  operation: 'CASH_OUT',
  status: 'WORSENING',
  severity: 'SEVERELY_DEGRADED',
  originClass: 'OBSERVED',
  startedAtMs,
  recoveredAtMs: null,
  resolvedAtMs: null,
  affectedPartners: 1,
  cohortNames: [],
  signal: null,
});

const incident = {
  incidentId: 'inc_1',
  origin: { type: 'BANKING_PARTNER', id: '60746948', displayName: 'Banco Beta' },
  operation: 'CASH_OUT',
  status: 'WORSENING',
  severity: 'SEVERELY_DEGRADED',
  confidence: 'HIGH',
  originClass: 'OBSERVED',
  startedAt: new Date(startedAtMs).toISOString(),
  detectedAt: '2026-11-29T01:45:00.000Z',
  recoveredAt: null,
  resolvedAt: null,
  updatedAt: '2026-11-29T01:50:00.000Z',
  affectedPartners: 1,
  summary,
  affectedClientIds: ['c1'],
  evidence: [
    {
      observedAt: '2026-11-29T01:40:00.000Z',
      metric: 'failureRate',
      entity: { type: 'BANKING_PARTNER', id: '60746948' },
      deviationPercent: 3.5,
      z: 4.2,
    },
    {
      observedAt: '2026-11-29T01:45:00.000Z',
      metric: 'outcomeVolume',
      entity: { type: 'BANKING_PARTNER', id: '60746948' },
      deviationPercent: -0.9,
      z: -7.25,
    },
  ],
};

function page(): string {
  const model = {
    csrf: '0'.repeat(64),
    actor: BREAK_GLASS,
    clients: { items: [] },
    partnerNames: {},
    deliveries: [],
    batches: [],
    recurrences: [],
    disputes: [],
    charts: [],
    health: { series: [], names: {}, incidents: [incident], from: 0, to: 0 },
  } as unknown as DashboardModel;
  return dashboardPage(model);
}

describe('console language', () => {
  it("shows an incident in English and never the clients' Portuguese summary", () => {
    expect(summary).toMatch(PORTUGUESE);
    const text = visible(page());
    expect(text).not.toContain(summary);
    expect(text).not.toMatch(PORTUGUESE);
    expect(page()).not.toMatch(/lang="pt-BR"/);
    expect(text).toContain(
      'Severe degradation at banking partner Banco Beta (ISPB 60746948); the other partners run normally, ' +
        'affecting Cash-Out (payments sent) through 1 banking partner. Getting worse. Strongest signal: outcomeVolume, z -7,25.',
    );
  });
});
