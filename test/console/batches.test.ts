/** The console's client view lists the client's latest Cash-Out batches with counts by status. */
import { describe, expect, it } from 'vitest';
import { deposit } from '../support/cash-out';
import { batchItems, batchSettled, createBatch } from '../support/cash-out-batch';
import { consoleCookie } from '../support/console';
import { call, Integrator } from '../support/harness';

describe('operator console: Cash-Out batches', () => {
  it("shows the selected client's batches, newest first, with each status counted", async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const first = await createBatch(api, batchItems(2));
    const second = await createBatch(api, batchItems(3));
    await batchSettled(api, first.batchId);
    await batchSettled(api, second.batchId);
    const page = async (clientId: string) =>
      (
        await call(`/admin/console?client=${clientId}`, { headers: { cookie: await consoleCookie() } })
      ).text();
    const html = await page(api.client.clientId);
    expect(html).toContain('id="batches"');
    const rows = [...html.matchAll(/<tr data-batch-id="([^"]+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((r) => r[1])).toEqual([second.batchId, first.batchId]);
    expect(rows[0]![2]).toMatch(/<td data-label="COMPLETED" data-status="COMPLETED">3<\/td>/);
    expect(rows[1]![2]).toMatch(/<td data-label="COMPLETED" data-status="COMPLETED">2<\/td>/);
    expect(rows[0]![2]).toContain('R$ 3,03');
    const other = await Integrator.create();
    const none = await page(other.client.clientId);
    expect(none).toContain('No batches yet.');
    // An empty section is its sentence alone, not a table header under it.
    const empty = none.slice(
      none.indexOf('id="batches"'),
      none.indexOf('</section>', none.indexOf('id="batches"')),
    );
    expect(empty).not.toContain('<table');
    expect(none).not.toContain(first.batchId);
  });
});
