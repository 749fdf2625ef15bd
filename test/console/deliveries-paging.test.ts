/**
 * The console's deliveries section shows every FAILED delivery the operator API lists, however many:
 * a page of each redeliverable status, then "Older FAILED deliveries" pages through the rest by the
 * API's own cursor, each row with its Redeliver button.
 */

import type * as v from 'valibot';
import { expect, it } from 'vitest';
import type { WebhookDeliveryPage } from '../../src/api/admin/openapi-responses';
import { DELIVERIES_SHOWN } from '../../src/console/data';
import { createCashIn } from '../support/cash-in';
import { consoleCookie } from '../support/console';
import { admin, call, Integrator } from '../support/harness';
import { deliveryRows, newSink, setPlan, waitUntil } from '../support/webhooks';

it('every FAILED delivery the operator API lists is on the console, page by page, with its button', async () => {
  const api = await Integrator.create();
  const { clientId } = api.client;
  const sink = newSink();
  await setPlan(sink, [500]);
  const count = DELIVERIES_SHOWN + 3;
  for (let i = 0; i < count; i++) await createCashIn(api, { webhookUrl: sink.url });
  // Each Cash-In's first event failed twice: its next attempt is 5 minutes away, so the set holds still.
  await waitUntil(
    () => deliveryRows(clientId),
    (rows) => rows.filter((r) => r.status === 'FAILED' && r.attempts >= 2).length === count,
    90_000,
  );
  const res = await admin(`/admin/clients/${clientId}/webhook-deliveries?status=FAILED&limit=500`);
  expect(res.status).toBe(200);
  const listed = ((await res.json()) as v.InferOutput<typeof WebhookDeliveryPage>).items.map(
    (d) => d.eventId,
  );
  expect(listed).toHaveLength(count);

  const cookie = await consoleCookie();
  const rows: string[] = [];
  const buttons: string[] = [];
  let next: string | undefined = `/admin/console?client=${clientId}`;
  for (let pages = 0; next !== undefined; pages++) {
    expect(pages, 'pages').toBeLessThan(5);
    const html = await (await call(next, { headers: { cookie } })).text();
    rows.push(
      ...[...html.matchAll(/data-event-id="([^"]+)" data-status="FAILED"/g)].map((m) => m[1] as string),
    );
    buttons.push(
      ...[...html.matchAll(/name="eventId" value="([^"]+)">\s*<button/g)].map((m) => m[1] as string),
    );
    next = /data-older="FAILED" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  }
  expect(rows.toSorted()).toEqual(listed.toSorted());
  expect(buttons.toSorted()).toEqual(listed.toSorted());
}, 120_000);
