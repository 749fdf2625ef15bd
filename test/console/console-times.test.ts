/**
 * Every timestamp the console shows is America/Sao_Paulo, 24 h, labelled BRT, in one style
 * (28/11/2026 22:35:00 BRT, as the plots' legend): webhook deliveries, incidents (started, detected, resolved) and their evidence windows,
 * batches, unapplied receipts. The instant itself stays machine-readable in `<time datetime>` (UTC).
 * Checked on the HTML the Worker renders: a FAILED delivery and a batch through real HTTP, and an
 * incident on the page the console builds from its model.
 */
import { describe, expect, it } from 'vitest';
import { type DashboardModel, dashboardPage } from '../../src/console/dashboard';
import { deposit } from '../support/cash-out';
import { batchItems, createBatch } from '../support/cash-out-batch';
import { consoleCookie } from '../support/console';
import { call, Integrator } from '../support/harness';
import { failedFirstEvent } from '../support/webhooks';

const BRT_TEXT = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} BRT$/;

/** The text São Paulo's clock (UTC-3, no daylight saving since 2019) shows for an instant. */
const brt = (iso: string) => {
  const local = new Date(Date.parse(iso) - 3 * 3_600_000).toISOString();
  return `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 19)} BRT`;
};

/** Every `<time>` of a piece of HTML: its datetime attribute and its text. */
function times(html: string): { datetime: string; text: string }[] {
  return [...html.matchAll(/<time datetime="([^"]+)">([^<]*)<\/time>/g)].map((m) => ({
    datetime: m[1] as string,
    text: m[2] as string,
  }));
}

/** Visible text only (tags and attributes dropped): no UTC instant may be left there. */
const visible = (html: string) => html.replace(/<[^>]*>/g, ' ');
const UTC_TEXT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z/;

function section(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThan(-1);
  const end = html.indexOf('</section>', start);
  return html.slice(start, end);
}

describe('console timestamps are BRT', () => {
  it("a webhook delivery's attempt and a batch's creation show in BRT, the instant in datetime", async () => {
    const api = await Integrator.create();
    const { clientId } = api.client;
    const { eventId } = await failedFirstEvent(api);
    await deposit(api, 10);
    const batch = await createBatch(api, batchItems(1));

    const cookie = await consoleCookie();
    const page = await (await call(`/admin/console?client=${clientId}`, { headers: { cookie } })).text();
    const deliveries = section(page, 'deliveries');
    const row = deliveries.slice(deliveries.indexOf(`data-event-id="${eventId}"`));
    const cell = /<td data-label="When">(.*?)<\/td>/s.exec(row)?.[1] ?? '';
    const [shown] = times(cell);
    expect(shown, cell).toBeDefined();
    expect(shown!.text).toMatch(BRT_TEXT);
    // The next attempt or the last one: within the hour of now, whichever the page shows.
    expect(Math.abs(Date.parse(shown!.datetime) - Date.now())).toBeLessThan(3_600_000);
    expect(shown!.text).toBe(brt(shown!.datetime));
    expect(visible(deliveries)).not.toMatch(UTC_TEXT);

    const batches = section(page, 'batches');
    const created = times(batches.slice(batches.indexOf(`data-batch-id="${batch.batchId}"`)))[0];
    expect(created?.text).toMatch(BRT_TEXT);
    expect(created?.text).toBe(brt(created!.datetime));
    expect(Math.abs(Date.parse(created!.datetime) - Date.now())).toBeLessThan(3_600_000);
  });

  it("an incident's started, detected and resolved times and its evidence windows are BRT", () => {
    const incident = {
      incidentId: 'inc_1',
      status: 'RESOLVED',
      operation: 'CASH_OUT',
      origin: { type: 'BANKING_PARTNER', id: '60746948', displayName: 'Banco Beta' },
      originClass: 'PARTNER',
      severity: 'HIGH',
      confidence: 0.9,
      summary: 'Cash-Outs through Banco Beta fail',
      startedAt: '2026-11-21T02:10:00.000Z',
      detectedAt: '2026-11-21T02:20:00.000Z',
      resolvedAt: '2026-11-21T03:05:00.000Z',
      affectedClientIds: ['c1'],
      evidence: [
        {
          observedAt: '2026-11-21T02:15:00.000Z',
          metric: 'successRate',
          entity: { type: 'BANKING_PARTNER', id: '60746948' },
          deviationPercent: -40,
          z: -6.1,
        },
      ],
    };
    const model = {
      csrf: '0'.repeat(64),
      clients: { items: [] },
      partnerNames: {},
      deliveries: [],
      batches: [],
      recurrences: [],
      charts: [],
      health: { series: [], names: {}, incidents: [incident], from: 0, to: 0 },
      disputes: [],
    } as unknown as DashboardModel;
    const html = section(dashboardPage(model), 'incidents');
    const shown = times(html);
    expect(shown.map((t) => t.datetime)).toEqual([
      '2026-11-21T02:10:00.000Z',
      '2026-11-21T02:20:00.000Z',
      '2026-11-21T03:05:00.000Z',
      '2026-11-21T02:15:00.000Z',
    ]);
    // 02:10 UTC is 23:10 the day before in São Paulo.
    expect(shown.map((t) => t.text)).toEqual([
      '20/11/2026 23:10:00 BRT',
      '20/11/2026 23:20:00 BRT',
      '21/11/2026 00:05:00 BRT',
      '20/11/2026 23:15:00 BRT',
    ]);
    expect(visible(html)).not.toMatch(UTC_TEXT);
  });
});
