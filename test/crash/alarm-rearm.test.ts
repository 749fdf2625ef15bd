/**
 * The scheduler re-arms an alarm whose time has already passed (issue 19, soak): that alarm may be
 * the one running now, whose handler took its task list before the new task existed, or one the
 * runtime lost. Trusting it, as the code did for up to a minute, left a new Cash-Out step to the
 * minute's cron sweep: Cash-Outs PROCESSING for 30-60 s.
 */
import { runInDurableObject } from 'cloudflare:test';
import { drizzle } from 'drizzle-orm/durable-sqlite';
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../durable-objects/ledger/scheduler';
import * as schema from '../../durable-objects/ledger/schema';
import { Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';

describe('Scheduler.arm', () => {
  it('sets the alarm again when the one in place is already past, however recently', async () => {
    const api = await Integrator.create();
    const decisions = await runInDurableObject(ledgerStub(api.client.clientId), async (_instance, state) => {
      const db = drizzle(state.storage, { schema });
      const out: { current: number | null; set: number[] }[] = [];
      for (const offset of [-5_000, -59_000, +5_000]) {
        const now = Date.now();
        const set: number[] = [];
        const fake = {
          getAlarm: async () => now + offset,
          setAlarm: async (at: number) => {
            set.push(at - now);
          },
        } as unknown as DurableObjectStorage;
        const scheduler = new Scheduler(db, fake);
        scheduler.schedule('flush-outbox', `probe${offset}`, now + 1_000);
        await scheduler.arm();
        scheduler.cancel('flush-outbox', `probe${offset}`);
        out.push({ current: offset, set });
      }
      return out;
    });
    // Past by 5 s or 59 s: set again (the old code waited until a minute had gone by).
    expect(decisions[0]!.set.length).toBe(1);
    expect(decisions[1]!.set.length).toBe(1);
    // A future alarm later than the task (now + 5 s > now + 1 s): moved earlier, as before.
    expect(decisions[2]!.set.length).toBe(1);
  });
});
