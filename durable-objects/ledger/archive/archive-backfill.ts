/**
 * Segments written before the manifest had ranges and totals (migration 0007; staging only, archiving
 * was off in production): each gets them once, from its own rows, before the next archiving step,
 * and a copy whose row is hot again (rehydrated back then) turns stale. One segment per step.
 */
import { isHot } from '../archivable';
import type { LedgerContext } from '../ledger-context';
import { readSegment } from './archive-reads';
import { utcDay } from './archive-segments';
import { cashInSource } from './archive-sources';
import { markStale } from './archive-stale-store';
import { legacySegment, setManifest } from './archive-store';
import { manifest } from './archive-totals';
import { addDayTotals, type TotalRow } from './archive-totals-store';

export async function backfillManifest(ledger: LedgerContext): Promise<void> {
  const legacy = legacySegment(ledger.db);
  if (!legacy) return;
  const rows = (await readSegment(ledger.env, legacy.key)) as (Record<string, unknown> & { seq: number })[];
  ledger.storage.transactionSync(() => {
    const live = rows.filter((row) => {
      const hot = isHot(ledger.db, cashInSource, row.seq);
      if (hot) markStale(ledger.storage.sql, legacy.id, row.seq);
      return !hot;
    });
    const fields = manifest(cashInSource, rows);
    const liveTotals = manifest(cashInSource, live.length > 0 ? live : rows).totals;
    if (live.length > 0 && liveTotals)
      addDayTotals(
        ledger.storage.sql,
        'cash-in',
        utcDay(fields.firstTime),
        JSON.parse(liveTotals) as TotalRow[],
        1,
      );
    setManifest(ledger.db, legacy.id, fields);
  });
}
