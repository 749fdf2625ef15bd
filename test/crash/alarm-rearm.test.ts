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
import { writeIn } from '../support/ledger-writes';

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

describe('Scheduler without needless alarm work', () => {
  it('arms once while its alarm is pending and nothing earlier comes; again after it fires', async () => {
    const api = await Integrator.create();
    const calls = await runInDurableObject(ledgerStub(api.client.clientId), async (_instance, state) => {
      const db = drizzle(state.storage, { schema });
      const now = Date.now();
      let alarm: number | null = null;
      const log: string[] = [];
      const fake = {
        getAlarm: async () => {
          log.push('get');
          return alarm;
        },
        setAlarm: async (at: number) => {
          log.push(`set ${at - now}`);
          alarm = at;
        },
      } as unknown as DurableObjectStorage;
      const scheduler = new Scheduler(db, fake);
      // Far-off tasks of this client (expiries, archiving) come before none of these probes.
      writeIn.dropTasks(db);
      const steps: string[][] = [];
      const step = async (work: () => void) => {
        log.length = 0;
        work();
        await scheduler.arm();
        steps.push([...log]);
      };
      await step(() => scheduler.schedule('flush-outbox', 'memo-a', now + 1_000));
      await step(() => scheduler.schedule('flush-outbox', 'memo-b', now + 2_000)); // after the alarm
      await step(() => scheduler.schedule('flush-outbox', 'memo-c', now + 500)); // before it
      await step(() => scheduler.alarmFired());
      writeIn.dropTasks(db, { idPrefix: 'flush-outbox:memo-' });
      return steps;
    });
    expect(calls).toEqual([
      ['get', 'set 1000'],
      [], // the alarm at +1 s is pending and comes first: no look-up, no read, no write
      ['get', 'set 500'],
      ['get'], // fired: storage is asked again (its +500 ms alarm still stands there)
    ]);
  });

  it('after a look-up that found no task, arms again only once a task is scheduled', async () => {
    const api = await Integrator.create();
    const calls = await runInDurableObject(ledgerStub(api.client.clientId), async (_instance, state) => {
      const db = drizzle(state.storage, { schema });
      const now = Date.now();
      const log: string[] = [];
      const fake = {
        getAlarm: async () => {
          log.push('get');
          return null;
        },
        setAlarm: async (at: number) => {
          log.push(`set ${at - now}`);
        },
      } as unknown as DurableObjectStorage;
      const scheduler = new Scheduler(db, fake);
      writeIn.dropTasks(db);
      await scheduler.arm(); // no task: nothing to read or set
      // A row the scheduler did not write: an arm() that looked again would find it and set it.
      writeIn.addTask(db, 'flush-outbox', 'none-a', now + 3_000);
      const steps: string[][] = [];
      for (const work of [
        () => {}, // nothing scheduled since (a 202 while the executor's pass is due): no look-up
        () => scheduler.schedule('flush-outbox', 'none-b', now + 1_000),
      ]) {
        log.length = 0;
        work();
        await scheduler.arm();
        steps.push([...log]);
      }
      writeIn.dropTasks(db, { idPrefix: 'flush-outbox:none-' });
      return steps;
    });
    expect(calls).toEqual([[], ['get', 'set 1000']]);
  });

  it('scheduleAll adds tasks or moves them earlier, never later', async () => {
    const api = await Integrator.create();
    const due = await runInDurableObject(ledgerStub(api.client.clientId), async (_instance, state) => {
      const db = drizzle(state.storage, { schema });
      const scheduler = new Scheduler(db, state.storage);
      const now = Date.now();
      scheduler.schedule('flush-outbox', 'all-probe', now + 1_000);
      scheduler.scheduleAll([
        ['flush-outbox', 'all-probe', now + 5_000],
        ['expire-cash-in', 'all-probe', now + 7_000],
      ]);
      const later = [
        scheduler.dueAt('flush-outbox', 'all-probe'),
        scheduler.dueAt('expire-cash-in', 'all-probe'),
      ];
      scheduler.scheduleAll([['flush-outbox', 'all-probe', now + 500]]);
      const earlier = scheduler.dueAt('flush-outbox', 'all-probe');
      scheduler.cancel('flush-outbox', 'all-probe');
      scheduler.cancel('expire-cash-in', 'all-probe');
      return [...later, earlier].map((at) => (at === undefined ? undefined : at - now));
    });
    expect(due).toEqual([1_000, 7_000, 500]);
  });
});
