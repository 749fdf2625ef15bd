/**
 * Cron backstop (every minute): asks every client's ClientLedger to run overdue work and re-arm
 * its alarm. Alarms are the primary path; this only guarantees nothing waits forever if an alarm
 * was lost.
 */
import { drizzle } from 'drizzle-orm/d1';
import { ledgerOf } from '../durable-objects/stubs';
import { clients } from './db/schema';
import { errorFields, log } from './infra/log';

const CONCURRENCY = 25;

export async function sweepAllClients(env: Env): Promise<void> {
  const ids = (await drizzle(env.DB).select({ id: clients.id }).from(clients).all()).map((r) => r.id);
  for (let i = 0; i < ids.length; i += CONCURRENCY) {
    const results = await Promise.allSettled(
      ids.slice(i, i + CONCURRENCY).map((id) => ledgerOf(env, id).sweep()),
    );
    for (const [j, r] of results.entries()) {
      if (r.status === 'rejected')
        log('error', 'sweep failed', { clientId: ids[i + j], ...errorFields(r.reason) });
    }
  }
}
