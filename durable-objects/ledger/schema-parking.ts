import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Open webhook deliveries parked in R2 while their transaction's next attempt is far away
 * (ledger/webhooks/delivery-parking.ts; migration 0030). One row per segment: WRITING from before its
 * put until the transaction that deletes its rows marks it PARKED; its body is at the key its id
 * derives. `due_at` is the earliest next attempt among its transactions (read back a minute before),
 * `first_seq`..`last_seq` the seqs it holds (the operator lists and the retry by event id).
 */
export const webhookParkedSegments = sqliteTable(
  'webhook_parked_segments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    status: text('status', { enum: ['WRITING', 'PARKED'] }).notNull(),
    dueAt: integer('due_at').notNull(),
    firstSeq: integer('first_seq').notNull(),
    lastSeq: integer('last_seq').notNull(),
    rows: integer('rows').notNull(),
  },
  (t) => [
    index('webhook_parked_segments_due_idx').on(t.dueAt),
    index('webhook_parked_segments_last_idx').on(t.lastSeq),
  ],
);

/**
 * Which transactions have parked deliveries: the hash of the aggregateId (archive-index.ts idHash) and
 * its segment. A new event of a parked transaction waits for the segment to come back, so events of
 * one transaction still go out in order. WITHOUT ROWID (hand-written migration 0030).
 */
export const webhookParked = sqliteTable(
  'webhook_parked',
  { hash: integer('hash').notNull(), segment: integer('segment').notNull() },
  (t) => [primaryKey({ columns: [t.hash, t.segment] })],
);
