/** The externalReference filter's tables (ClientLedger; migrations 0024, 0027). */
import { blob, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The externalReference filter of archived Cash-Ins (archive/reference-filter.ts): per kind, one row
 * per range of the filter's hash space (33 bits; 34 for one started before 2026-11-29) from `lo`
 * (2^bits wide), its `count` hashes Golomb–Rice coded in `codes`; `since`: the first segment whose
 * references it holds. Kind `#bytes`: each filter's running total of blob bytes (`count`); kind
 * `#pending`: its pending buffer's size (`count`) and the hash its next merge starts at (`since`).
 */
export const archiveReferenceFilters = sqliteTable(
  'archive_reference_filters',
  {
    kind: text('kind').notNull(),
    lo: integer('lo').notNull(),
    bits: integer('bits').notNull(),
    count: integer('count').notNull(),
    codes: blob('codes').notNull(),
    since: integer('since').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.lo] })],
);

/**
 * The filter's pending buffer (archive/reference-filter.ts): hashes archived but not yet merged into
 * their range, per kind, at most PENDING_MAX after each archiving step. WITHOUT ROWID (migration 0027):
 * the key is the row.
 */
export const archiveReferencePending = sqliteTable(
  'archive_reference_pending',
  {
    kind: text('kind').notNull(),
    hash: integer('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.hash] })],
);
