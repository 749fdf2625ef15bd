/**
 * Reconciliation property (issue 16): archiving at random instants, one after another, never changes
 * any read of the client: Cash-In and Cash-Out list pages walked both ways, summaries, GET by id,
 * statement pages and balances `at`. Cut points fall between transactions, so pages, summaries and
 * statements straddle the hot/archived boundary differently in each run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { everything, history, same } from '../support/archive-history';
import { admin, Integrator } from '../support/harness';

describe('archive reconciliation', () => {
  it('random archive points never change a read', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.nat({ max: 6 }), { minLength: 1, maxLength: 2 }), async (cuts) => {
        const api = await Integrator.create();
        const h = await history(api);
        const before = await everything(api, h);
        for (const k of [...cuts].sort((a, b) => a - b)) {
          const at = new Date(h.times[k]!).toISOString();
          const res = await admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', { before: at });
          expect(res.status).toBe(200);
          same(await everything(api, h), before);
        }
      }),
      { numRuns: 3 },
    );
  }, 600_000);
});
