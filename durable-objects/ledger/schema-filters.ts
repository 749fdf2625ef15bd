/** The externalReference filter's table (ClientLedger; migration 0024). */
import { blob, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The externalReference filter of archived transactions (archive/reference-filter.ts): per kind, one
 * row per range of the 34-bit hash space from `lo` (2^bits wide), its `count` hashes Golomb–Rice
 * coded in `codes`; `since`: the first segment whose references it holds.
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
