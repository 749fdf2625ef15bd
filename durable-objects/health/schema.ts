/**
 * HealthAnalyzer storage (drizzle, migrations in ./migrations applied by the object on start-up).
 * One row of `state` per key: the engine snapshot, the bootstrap, the counters. `seen`: observation
 * ids already counted (6 h). `parked`: live observations waiting while a bootstrap's history arrives.
 * `series`: per-window counts per partner and institution for the operator console (48 h).
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const state = sqliteTable('state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const seen = sqliteTable(
  'seen',
  {
    id: text('id').primaryKey(),
    at: integer('at').notNull(),
  },
  // Forgetting ids older than 6 h is a range delete, not a scan.
  (t) => [index('seen_at_idx').on(t.at)],
);

export const parked = sqliteTable('parked', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  at: integer('at').notNull(),
  body: text('body').notNull(),
});

export const series = sqliteTable(
  'series',
  {
    window: integer('window').notNull(),
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    operation: text('operation').notNull(),
    created: integer('created').notNull(),
    settled: integer('settled').notNull(),
    failed: integer('failed').notNull(),
    expired: integer('expired').notNull(),
    returned: integer('returned').notNull(),
  },
  (t) => [primaryKey({ columns: [t.window, t.kind, t.id, t.operation] })],
);
