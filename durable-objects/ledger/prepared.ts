/**
 * Drizzle prepared queries built once per object and reused. The statements on the hot paths
 * (lookups, lists, the Cash-In insert, outbox events, task scheduling) run on every request;
 * building a drizzle query costs more CPU than SQLite takes to run it, so each is built once with
 * `sql.placeholder`s for its values and run with `.run/.get/.all(values)`.
 *
 * The SQL of a prepared query is fixed: only call sites whose query shape never varies use it
 * (same columns every time; values only through placeholders).
 */
import { sql } from 'drizzle-orm';
import type { LedgerDb } from './db';

const cache = new WeakMap<LedgerDb, Map<string, unknown>>();

/** The query `key` of this object's database, built by `build` on first use. */
export function prepared<Q>(db: LedgerDb, key: string, build: () => Q): Q {
  let byKey = cache.get(db);
  if (!byKey) {
    byKey = new Map();
    cache.set(db, byKey);
  }
  let query = byKey.get(key) as Q | undefined;
  if (query === undefined) {
    query = build();
    byKey.set(key, query);
  }
  return query;
}

/** A named value of a prepared query. */
export const ph = (name: string) => sql.placeholder(name);
