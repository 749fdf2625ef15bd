/** The externalReference filter's table (ClientLedger; migration 0024). */
import { blob, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The externalReference filter of archived Cash-Ins (archive/reference-filter.ts): per kind, one row
 * per range of the filter's hash space (33 bits; 34 for one started before 2026-11-29) from `lo`
 * (2^bits wide), its `count` hashes Golomb–Rice coded in `codes`; `since`: the first segment whose
 * references it holds. Kind `#bytes`: each filter's running total of blob bytes (`count`).
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
