import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Archived delivery segments that hold GIVEN_UP deliveries, with the seq range of those (migration
 * 0028): the operator list by status and the retry by event id find archived GIVEN_UP ones here
 * (archive/given-up-store.ts).
 */
export const archiveGivenUp = sqliteTable(
  'archive_given_up',
  {
    segment: integer('segment').primaryKey(),
    key: text('key').notNull(),
    firstSeq: integer('first_seq').notNull(),
    lastSeq: integer('last_seq').notNull(),
  },
  (t) => [index('archive_given_up_last_idx').on(t.lastSeq)],
);
