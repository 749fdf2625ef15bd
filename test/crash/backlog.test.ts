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
import { deliveries, outboxRows, tasks } from '../support/ledger-reads';
import { asNothingRan } from '../support/ledger-writes';

const BACKLOG = 110;

describe('an outbox backlog of more than 100 events', () => {
  it('is flushed to the health queue and adopted for webhook delivery in full', async () => {
    const api = await Integrator.create();
    for (let i = 0; i < BACKLOG; i++) expect((await api.post('/cash-in', cashInBody())).status).toBe(201);
    const id = api.client.clientId;

    // As if nothing had run since: every event unpublished, no delivery adopted, both tasks due.
    await asNothingRan(id);
    const counts = new Map<string, number>();
    for (const e of await outboxRows(id)) counts.set(e.channel, (counts.get(e.channel) ?? 0) + 1);
    const waiting = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([channel, n]) => ({ channel, n }));
    for (const { n } of waiting) expect(n).toBeGreaterThan(100);

    // Each pass takes a bounded batch and schedules the rest right away; a few passes drain it.
    const unpublished = async () =>
      (await outboxRows(id)).filter((e) => e.publishedAt === null).map(({ seq }) => ({ seq }));
    for (let pass = 0; pass < 8 && (await unpublished()).length > 0; pass++) await cronSweep(api);

    expect(await unpublished()).toEqual([]);
    const adopted = { n: (await deliveries(id)).length };
    const webhookEvents = waiting.find((w) => w.channel === 'webhook')?.n;
    expect(adopted?.n).toBe(webhookEvents);
    // Neither task failed on the way (a failure leaves it rescheduled with attempts > 0).
    expect((await tasks(id)).filter((t) => t.attempts > 0).map((t) => ({ id: t.id }))).toEqual([]);
  });
});
