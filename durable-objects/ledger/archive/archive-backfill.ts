/**
 * Segments written before the manifest had ranges and totals (migration 0007; staging only, archiving
 * was off in production): each gets them once, from its own rows, before the next archiving step,
 * and a copy whose row is hot again (rehydrated back then) turns stale. One segment per step.
 */
import { sql } from 'drizzle-orm';
import type { LedgerContext } from '../context';
import { archiveSegments, cashIns } from '../schema';
import { readSegment } from './archive-reads';
import { markStale, utcDay } from './archive-segments';
import { cashInSource } from './archive-sources';
import { addDayTotals, manifest, type TotalRow } from './archive-totals';

export async function backfillManifest(ctx: LedgerContext): Promise<void> {
  const legacy = ctx.db
    .select({ id: archiveSegments.id, key: archiveSegments.key })
    .from(archiveSegments)
    .where(sql`${archiveSegments.state} = 'DONE' AND ${archiveSegments.firstTime} IS NULL`)
    .get();
  if (!legacy) return;
  const rows = (await readSegment(ctx.env, legacy.key)) as (Record<string, unknown> & { seq: number })[];
  ctx.storage.transactionSync(() => {
    const live = rows.filter((row) => {
      const hot = ctx.db
        .select({ seq: cashIns.seq })
        .from(cashIns)
        .where(sql`${cashIns.seq} = ${row.seq}`)
        .get();
      if (hot) markStale(ctx.storage.sql, legacy.id, row.seq);
      return !hot;
    });
    const fields = manifest(cashInSource, rows);
    const liveTotals = manifest(cashInSource, live.length > 0 ? live : rows).totals;
    if (live.length > 0 && liveTotals)
      addDayTotals(
        ctx.storage.sql,
        'cash-in',
        utcDay(fields.firstTime),
        JSON.parse(liveTotals) as TotalRow[],
        1,
      );
    ctx.db.update(archiveSegments).set(fields).where(sql`${archiveSegments.id} = ${legacy.id}`).run();
  });
}
