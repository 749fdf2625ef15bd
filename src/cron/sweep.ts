/**
 * Cron backstop (every minute): asks every client's ClientLedger to run overdue work and re-arm
 * its alarm. Alarms are the primary path; this only guarantees nothing waits forever if an alarm
 * was lost. The same cron (index.ts) reconciles real partners' received Pix
 * (src/cron/partner-notices.ts).
 */
import { ledgerOf } from '../../durable-objects/stubs';
import { clientIdsAfter } from '../db/clients';
import { errorFields, log } from '../infra/log';

const CONCURRENCY = 25;

/** Pages of client ids by primary key: memory stays flat however many clients there are. */
export async function sweepAllClients(env: Env): Promise<void> {
  let after = '';
  for (;;) {
    const ids = await clientIdsAfter(env, after, CONCURRENCY);
    if (ids.length === 0) return;
    const results = await Promise.allSettled(ids.map((id) => ledgerOf(env, id).sweep()));
    for (const [j, r] of results.entries()) {
      if (r.status === 'rejected')
        log('error', 'sweep failed', { clientId: ids[j], ...errorFields(r.reason) });
    }
    after = ids.at(-1) as string;
  }
}
