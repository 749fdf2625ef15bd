/** The folded manifest's table (ClientLedger; migration 0029). */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The manifest of closed days folded out of archive_segments (ledger/archive/archive-fold.ts): one row
 * per (kind, UTC day) run of segment ids `min_id`..`max_id` (no other segment of that kind in between),
 * whose per-segment rows are the gzip JSON body in R2 at the key its row derives (archive-runs-store.ts).
 * Runs of one kind never overlap, so the run of a segment id is the first of its kind ending at or after
 * it (archive_runs_max_idx). WITHOUT ROWID (hand-written migration 0029).
 */
export const archiveRuns = sqliteTable(
  'archive_runs',
  {
    kind: text('kind').notNull(),
    dayStart: integer('day_start').notNull(),
    minId: integer('min_id').notNull(),
    maxId: integer('max_id').notNull(),
    firstTime: integer('first_time').notNull(),
    lastTime: integer('last_time').notNull(),
    segments: integer('segments').notNull(),
    rows: integer('rows').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.dayStart, t.minId] }),
    index('archive_runs_max_idx').on(t.kind, t.maxId),
  ],
);
