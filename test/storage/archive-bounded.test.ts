/**
 * A list page opens only the archive segments it can reach (issue 16: cost bounded by the page, not
 * by history): with six one-row Cash-In segments, a one-item page, first or after a cursor, in either
 * order, reads at most the two segments that hold its row and the look-ahead row.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { mergeArchived } from '../../durable-objects/ledger/archive/archive-lists';
import { gunzipJson, type Segment, segmentRows } from '../../durable-objects/ledger/archive/archive-segments';
import { cashInSource } from '../../durable-objects/ledger/archive/archive-sources';
import type { PageInput } from '../../durable-objects/ledger/reads/keyset';
import { createCashIn, payCashIn } from '../support/cash-in';
import { admin, Integrator } from '../support/harness';
import { ledgerContextOf, ledgerStub } from '../support/ledger';
import { archiveSegments } from '../support/ledger-reads';

it('a one-item page opens at most two of six segments, in both orders and after a cursor', async () => {
  const api = await Integrator.create();
  for (let i = 0; i < 6; i++) {
    const c = await createCashIn(api);
    await payCashIn(api, c.internalCode as string);
    // One call per Cash-In: each archives only the one paid since the last (one segment each).
    const res = await admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
      before: new Date(Date.now() + 1).toISOString(),
    });
    expect(await res.json()).toEqual({ archivedTransactions: 1 });
  }
  const segments = (await archiveSegments(api.client.clientId)).filter((s) => s.kind === 'cash-in');
  expect(segments).toHaveLength(6);
  await runInDurableObject(ledgerStub(api.client.clientId), async (instance) => {
    const opened: string[] = [];
    const read = async (key: string) => {
      opened.push(key);
      const object = await env.ARCHIVE.get(key);
      return segmentRows(await gunzipJson<Segment>(object!.body));
    };
    const page = async (input: Omit<PageInput, 'from' | 'to' | 'limit'>) => {
      opened.length = 0;
      const rows = await mergeArchived(
        ledgerContextOf(instance),
        cashInSource,
        { from: 0, to: Date.now(), limit: 1, ...input },
        [],
        read,
      );
      expect(rows).toHaveLength(2); // the page's row and the one telling there is a next page
      expect(opened.length).toBeLessThanOrEqual(2);
      return rows;
    };
    for (const order of ['asc', 'desc'] as const) {
      const first = await page({ order });
      const third = await page({ order, position: { direction: 'next', ...first[1]! } });
      expect(third[0]!.seq).not.toBe(first[0]!.seq);
      await page({ order, position: { direction: 'prev', ...third[1]! } });
    }
  });
});
