/**
 * A backlog drains (found by the 10-minute soak): after the client's object was kept from running
 * its tasks for a while, more than a hundred events wait in its outbox. Flushing health
 * observations and adopting webhook events mark them with one UPDATE … IN (…), and a Durable
 * Object query binds at most 100 values: the batches must stay below that, or the backlog can
 * never leave (the task fails and retries forever).
 */
import { describe, expect, it } from 'vitest';
import { cronSweep } from '../support/crash';
import { cashInBody, Integrator } from '../support/harness';
import { sqlRows } from '../support/ledger';

const BACKLOG = 110;

describe('an outbox backlog of more than 100 events', () => {
  it('is flushed to the health queue and adopted for webhook delivery in full', async () => {
    const api = await Integrator.create();
    for (let i = 0; i < BACKLOG; i++) expect((await api.post('/cash-in', cashInBody())).status).toBe(201);
    const id = api.client.clientId;

    // As if nothing had run since: every event unpublished, no delivery adopted, both tasks due.
    await sqlRows(id, 'UPDATE outbox SET published_at = NULL');
    await sqlRows(id, 'DELETE FROM webhook_deliveries');
    await sqlRows(id, "DELETE FROM tasks WHERE kind IN ('flush-outbox', 'dispatch-webhooks')");
    await sqlRows(
      id,
      `INSERT INTO tasks (id, kind, ref, due_at, attempts) VALUES
         ('flush-outbox:all', 'flush-outbox', 'all', 0, 0),
         ('dispatch-webhooks:all', 'dispatch-webhooks', 'all', 0, 0)`,
    );
    const waiting = await sqlRows<{ channel: string; n: number }>(
      id,
      'SELECT channel, count(*) AS n FROM outbox GROUP BY channel ORDER BY channel',
    );
    for (const { n } of waiting) expect(n).toBeGreaterThan(100);

    // Each pass takes a bounded batch and schedules the rest right away; a few passes drain it.
    const unpublished = () => sqlRows(id, 'SELECT seq FROM outbox WHERE published_at IS NULL');
    for (let pass = 0; pass < 8 && (await unpublished()).length > 0; pass++) await cronSweep(api);

    expect(await unpublished()).toEqual([]);
    const [adopted] = await sqlRows<{ n: number }>(id, 'SELECT count(*) AS n FROM webhook_deliveries');
    const webhookEvents = waiting.find((w) => w.channel === 'webhook')?.n;
    expect(adopted?.n).toBe(webhookEvents);
    // Neither task failed on the way (a failure leaves it rescheduled with attempts > 0).
    expect(await sqlRows(id, 'SELECT id FROM tasks WHERE attempts > 0')).toEqual([]);
  });
});
