import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import type * as schema from './schema';

export type LedgerDb = DrizzleSqliteDODatabase<typeof schema>;

/**
 * The object's SQL API under drizzle: hot statements with a fixed text run here directly, without
 * drizzle building or mapping anything (workerd keeps each statement text prepared).
 */
export function sqlOf(db: LedgerDb): SqlStorage {
  return (db as LedgerDb & { $client: DurableObjectStorage }).$client.sql;
}
