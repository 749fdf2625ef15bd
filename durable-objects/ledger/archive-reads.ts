/**
 * Reads that reach into the archive: a GET by id finds the same transaction, with the same
 * precedence (ledger/lookup.ts), whether its row is hot or in an R2 segment.
 */

import { gunzipJson, type Segment } from './archive';
import { segmentsFor } from './archive-index';
import { type CashInRow, findCashIn } from './cash-in-store';
import type { LedgerContext } from './context';
import { cashIns as cashInsTable } from './schema';

/** Precedence level of `id` on a row (spec §4.5): lower wins; undefined = no match. */
export function matchLevel(row: CashInRow, id: string): number | undefined {
  if (row.internalCode === id) return 0;
  if (row.transactionId === id) return 1;
  if (row.endToEndId === id) return 2;
  if (row.refundEndToEndId === id) return 3;
  if (row.externalReference === id) return 4;
  return undefined;
}

/** Decoded segments by key: segments are immutable, so a cached copy never goes stale. */
const cache = new Map<string, Segment>();
const CACHE_SEGMENTS = 8;

export async function readSegment(env: Env, key: string): Promise<Segment> {
  const hit = cache.get(key);
  if (hit) return hit;
  const object = await env.ARCHIVE.get(key);
  // An indexed segment that is gone is a broken archive, never "not found".
  if (!object) throw new Error(`archive segment missing: ${key}`);
  const segment = await gunzipJson<Segment>(object.body);
  cache.set(key, segment);
  if (cache.size > CACHE_SEGMENTS) cache.delete(cache.keys().next().value as string);
  return segment;
}

/** The Cash-In `id` names, hot or archived: best level first, then the newest. */
export async function findCashInAnywhere(ctx: LedgerContext, id: string): Promise<CashInRow | undefined> {
  const hot = findCashIn(ctx.db, id);
  let best = hot;
  let bestLevel = hot ? matchLevel(hot, id) : undefined;
  if (bestLevel === 0) return hot;
  for (const { key } of segmentsFor(ctx.storage.sql, id)) {
    for (const row of (await readSegment(ctx.env, key)).cashIns) {
      const level = matchLevel(row, id);
      if (level === undefined) continue;
      if (
        bestLevel === undefined ||
        level < bestLevel ||
        (level === bestLevel && best && row.seq > best.seq)
      ) {
        best = row;
        bestLevel = level;
      }
    }
  }
  return best;
}

/**
 * Brings an archived Cash-In back hot (same seq, same row) before a change: a refund or a bank
 * return (MED, up to 90 days) of a Cash-In archived after 35 days. Chosen over keeping every PAID
 * Cash-In hot for 90 days because that would keep most of the hot footprint for 3 months; a
 * rehydrated row is served in place of its archived copy (equal seq: hot wins) and is archived again
 * in a newer segment once closed (newest segment wins). Returns whether a row came back.
 */
export async function rehydrateCashIn(ctx: LedgerContext, id: string): Promise<boolean> {
  const row = await findCashInAnywhere(ctx, id);
  if (!row) return false;
  const hot = ctx.storage.sql.exec('SELECT 1 FROM cash_ins WHERE seq = ?', row.seq).toArray();
  if (hot.length > 0) return false;
  ctx.db.insert(cashInsTable).values(row).run();
  return true;
}
