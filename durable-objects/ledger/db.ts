import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import type * as schema from './schema';

export type LedgerDb = DrizzleSqliteDODatabase<typeof schema>;
