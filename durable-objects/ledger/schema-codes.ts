/** The internal codes' counter and the cycle charges' reserved codes (ClientLedger; migration 0025). */
import { blob, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * One row (`id` 1): the client's next internal-code counter value and the key of its permutation
 * (src/domain/internal-code.ts), drawn at the first code (internal-codes.ts).
 */
export const codeCounter = sqliteTable('code_counter', {
  id: integer('id').primaryKey(),
  next: integer('next').notNull(),
  key: blob('key').notNull(),
});

/**
 * A real partner's cycle charge's counter value, taken before its `PUT /cobr` and deleted in the
 * transaction that stores the charge: a retry after a crash sends the same TxId.
 */
export const cycleCodes = sqliteTable(
  'cycle_codes',
  {
    recurrenceId: text('recurrence_id').notNull(),
    cycle: integer('cycle').notNull(),
    counter: integer('counter').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recurrenceId, t.cycle] })],
);
