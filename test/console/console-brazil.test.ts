/**
 * The console reads the Brazilian way at a glance (docs/operating.md, "Operator console"): money
 * `R$ 250.000,50`, counts `1.234`, percentages `57.032,6 %`, one date style in BRT; what needs the
 * operator (open incidents, open disputes) before everything else; every cell of every table
 * labelled, since a phone shows each row as a card. Checked on the HTML the console renders.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { buildCharts, MIN_OUTCOMES } from '../../src/console/charts';
import { type DashboardModel, dashboardPage } from '../../src/console/dashboard';
import { brl, brtText, count, percent } from '../../src/console/format';
import { saveReport } from '../../src/db/reconciliation-reports';
import type { CashInView } from '../../src/domain/cash-in';
import { BREAK_GLASS } from '../../src/domain/operators';
import { consoleCookie } from '../support/console';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { call } from '../support/harness';

const visible = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

const incident = {
  incidentId: 'inc_1',
  status: 'OPEN',
  operation: 'CASH_OUT',
  origin: { type: 'BANKING_PARTNER', id: '42273459', displayName: 'Beta Pagamentos Instantâneos S.A.' },
  originClass: 'PARTNER',
  severity: 'HIGH',
  confidence: 'HIGH',
  summary: 'Falhas nos Cash-Outs desde 22:35 BRT',
  startedAt: '2026-11-29T01:35:00.000Z',
  detectedAt: '2026-11-29T01:45:00.000Z',
  affectedClientIds: Array.from({ length: 1234 }, (_, i) => `c${i}`),
  evidence: [
    {
      observedAt: '2026-11-29T01:40:00.000Z',
      metric: 'successRate',
      entity: { type: 'BANKING_PARTNER', id: '42273459' },
      // A ratio: 570.33 times above expectation reads 57.032,6 %.
      deviationPercent: 570.326497,
      z: -6.125,
    },
  ],
};

function model(extra: Partial<DashboardModel> = {}): DashboardModel {
  const client = {
    id: 'c0',
    name: 'Apostas Exemplo Ltda',
    partners: ['42273459'],
    limits: {
      perTransaction: 25_000_050,
      daily: 100_000_000,
      monthly: 1_234_567_891,
      perPayeeDaily: 5_000_000,
    },
    approvalThresholdCents: 1_000_000,
    rateLimitPerSecond: 1500,
    applicationTokenActive: true,
  };
  return {
    csrf: '0'.repeat(64),
    actor: BREAK_GLASS,
    clients: { items: [client] },
    partnerNames: { '42273459': 'Beta Pagamentos Instantâneos S.A.' },
    selected: client,
    deliveries: [],
    batches: [
      {
        batchId: 'b1',
        createdAt: '2026-11-29T01:00:00.000-03:00',
        count: 3,
        amount: 4722.21,
        byStatus: { PROCESSING: 0, PENDING: 0, COMPLETED: 2, CANCELLED: 1, REFUNDED: 0 },
      },
    ],
    recurrences: [
      {
        recurrenceId: 'RR3188082620270120abcDEF12345',
        externalReference: 'assinatura-42',
        status: 'APPROVED',
        frequency: 'MONTHLY',
        startDate: '2027-01-31',
        amount: 1250.5,
        retryPolicy: 'THREE_IN_SEVEN_DAYS',
        contract: 'PLANO-42',
        payer: { name: 'Maria da Silva', document: '12345678909' },
        authorization: { journey: 'QR' },
        nextDueDate: '2027-01-31',
        createdAt: '2027-01-20T10:15:30.123-03:00',
        authorizationExpiresAt: '2027-01-27T10:15:30.123-03:00',
        approvedAt: '2027-01-20T10:20:00.000-03:00',
      },
    ],
    charts: [],
    disputes: [],
    health: { series: [], names: {}, incidents: [incident], from: 0, to: 0 },
    ...extra,
  } as unknown as DashboardModel;
}

describe('the console, the Brazilian way', () => {
  it('formats money, counts and percentages with pt-BR rules, exactly from centavos', () => {
    expect(brl(25_000_050)).toBe('R$ 250.000,50');
    expect(brl(472_221)).toBe('R$ 4.722,21');
    expect(brl(5)).toBe('R$ 0,05');
    expect(brl(999_999_999_999)).toBe('R$ 9.999.999.999,99');
    expect(brl(-15_000)).toBe('-R$ 150,00');
    expect(count(1234)).toBe('1.234');
    expect(percent(57032.6497)).toBe('57.032,6 %');
    expect(brtText(Date.parse('2026-11-29T01:35:00Z'))).toBe('28/11/2026 22:35:00 BRT');
  });

  it('limits, batches, incident evidence and counts read pt-BR; no US-formatted number is left', () => {
    const html = dashboardPage(model());
    const text = visible(html);
    expect(text).toContain('per transaction R$ 250.000,50');
    expect(text).toContain('monthly R$ 12.345.678,91');
    expect(text).toContain('rate 1.500/s');
    expect(text).toContain('R$ 4.722,21');
    expect(text).toContain('57.032,6 %');
    expect(text).toContain('-6,13');
    expect(text).toContain('1.234 client(s) affected');
    // A recurrence's amount and its next charge: the due date and the day its window opens.
    expect(text).toContain('R$ 1.250,50 fixed');
    expect(text).toMatch(/31\/01\/2027\s*21\/01\/2027/);
    // No `R$ 4722.21`, `57032.6497` or `250000.50` anywhere.
    expect(text).not.toMatch(/R\$ \d+\.\d{2}\b/);
    expect(text).not.toMatch(/\d{4,}\.\d+/);
  });

  it('open incidents come first, then open disputes, before clients, deliveries and plots', () => {
    const none = dashboardPage(model());
    expect(none).not.toContain('id="disputes"');
    const html = dashboardPage(
      model({
        disputes: [
          {
            clientId: 'c0',
            cashIn: {
              internalCode: 'ci_disputed_1',
              dispute: {
                id: 'med_1',
                status: 'OPEN',
                openedAt: '2026-11-28T10:00:00.000Z',
                respondBy: '2026-12-01T10:00:00.000Z',
                blockedAmount: 150,
              },
            } as unknown as CashInView,
          },
        ],
      }),
    );
    const at = (id: string) => html.indexOf(`id="${id}"`);
    expect(at('incidents')).toBeGreaterThan(-1);
    expect(at('incidents')).toBeLessThan(at('disputes'));
    expect(at('disputes')).toBeLessThan(at('clients'));
    expect(at('clients')).toBeLessThan(at('batches'));
    expect(at('batches')).toBeLessThan(at('health'));
    expect(visible(html.slice(at('disputes')))).toContain('R$ 150,00');
  });

  it('every cell of every table carries the label a phone card shows', () => {
    const html = dashboardPage(model());
    const cells = [...html.matchAll(/<td(?![^>]*class="actions")[^>]*>/g)].map((m) => m[0]);
    expect(cells.length).toBeGreaterThan(10);
    for (const cell of cells) expect(cell).toMatch(/data-label="[^"]+"/);
  });

  it('hides the success rate of a window with too few finished transactions, and says out of how many', () => {
    const point = (window: number, settled: number, failed: number) => ({
      window,
      kind: 'partner' as const,
      id: '42273459',
      operation: 'CASH_OUT' as const,
      created: settled + failed,
      settled,
      failed,
      expired: 0,
      returned: 0,
    });
    const t = Date.parse('2026-11-29T00:00:00Z');
    const [chart] = buildCharts(
      [point(t, 0, 1), point(t + 300_000, 4, MIN_OUTCOMES)],
      [],
      {},
      t,
      t + 600_000,
    );
    expect(chart!.successPercent.slice(0, 2)).toEqual([null, 44.4]);
    expect(chart!.outcomes.slice(0, 2)).toEqual([1, 4 + MIN_OUTCOMES]);
  });

  it('an empty section is its sentence alone, with no table header under it', () => {
    const html = dashboardPage(
      model({
        clients: { items: [] },
        selected: { id: 'c0', name: 'X' },
        batches: [],
        recurrences: [],
      } as never),
    );
    for (const id of ['clients', 'deliveries', 'batches', 'recurrences']) {
      const at = html.indexOf(`id="${id}"`);
      expect(at, id).toBeGreaterThan(-1);
      expect(html.slice(at, html.indexOf('</section>', at)), id).not.toContain('<table');
    }
  });

  it('a delivery row says which time it shows, and a redelivered one says it is a new round', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    const base = { eventType: 'CASHIN_PAID', aggregateId: 'a', createdAt: '2026-11-29T11:00:00Z' };
    const deliveries = [
      {
        ...base,
        eventId: 'e1',
        status: 'PENDING',
        attempts: 0,
        lastResponseStatus: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: '2026-11-29T11:59:00Z',
      },
      {
        ...base,
        eventId: 'e2',
        status: 'FAILED',
        attempts: 2,
        lastResponseStatus: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: '2026-11-29T12:05:00Z',
      },
      {
        ...base,
        eventId: 'e3',
        status: 'DELIVERED',
        attempts: 1,
        lastResponseStatus: 200,
        deliveredAt: '2026-11-29T11:30:00Z',
      },
    ];
    const html = dashboardPage(
      model({ deliveries, health: { series: [], names: {}, incidents: [], from: 0, to: now } } as never),
    );
    const row = (id: string) =>
      visible(
        html.slice(
          html.indexOf(`data-event-id="${id}"`),
          html.indexOf('</tr>', html.indexOf(`data-event-id="${id}"`)),
        ),
      );
    expect(row('e1')).toContain('0, new round previous round: HTTP 500');
    expect(row('e1')).toContain('queued behind an earlier event');
    expect(row('e2')).toContain('next attempt 29/11/2026 09:05:00 BRT');
    expect(row('e2')).not.toContain('HTTP 500 · HTTP 500');
    expect(row('e3')).toContain('delivered 29/11/2026 08:30:00 BRT');
  });

  it('the Books page says what fills it when no day has been checked', async () => {
    const html = await (
      await call('/admin/console/books', { headers: { cookie: await consoleCookie() } })
    ).text();
    expect(html).toContain('declared partners only');
    expect(html).toContain('npm run mock:psp');
  });

  it("the Books page names the partner as declared and shows a break's amounts pt-BR, Ours and Theirs labelled", async () => {
    await saveReport(env, {
      date: '2020-01-02',
      ispb: FAKE_PSP_ISPB,
      status: 'BREAKS',
      checkedAt: '2020-01-03T03:30:00.000Z',
      counts: {},
      healed: [],
      breaks: [
        {
          kind: 'AMOUNT_DIFFERS',
          subject: 'BALANCE',
          ours: { amount: 1500.5, status: 'SETTLED' },
          theirs: { amount: 0, status: 'SETTLED' },
        },
      ],
    } as never);
    const html = await (
      await call('/admin/console/books', { headers: { cookie: await consoleCookie() } })
    ).text();
    const report = html.slice(
      html.indexOf('2020-01-02'),
      html.indexOf('</details>', html.indexOf('2020-01-02')),
    );
    expect(visible(report)).toContain('PSP de Testes S.A.');
    expect(report).not.toContain(`partner ${FAKE_PSP_ISPB}`);
    expect(report).toContain('<td data-label="Ours">R$ 1.500,50 SETTLED</td>');
    expect(report).toContain('<td data-label="Theirs">R$ 0,00 SETTLED</td>');
  });
});
