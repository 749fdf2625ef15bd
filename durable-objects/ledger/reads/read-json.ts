/**
 * GET by id answered as JSON text (./view-sql.ts, rendered by each kind's store): one statement finds the row by its best id
 * level (./lookup.ts) and renders its view, so the ledger hands the Worker a string instead of an
 * object to clone across the RPC and serialize again.
 */
import { cashInView } from '../../../src/domain/cash-in';
import { cashOutView } from '../../../src/domain/cash-out';
import { findCashInAnywhere, findCashOutAnywhere } from '../archive/archive-reads';
import { cashInJsonSql } from '../cash-in/cash-in-store';
import { cashOutJsonSql } from '../cash-out/cash-out-store';
import type { LedgerContext } from '../ledger-context';

function render(sql: SqlStorage, query: string, seq: number): string | null {
  const [hit] = sql.exec<{ json: string }>(query, seq).toArray();
  return hit ? hit.json : null;
}

/**
 * The Cash-In `id` names as GET /cash-in/{id} answers it, or null. When the client has archived
 * Cash-Ins and the hot match is not an internalCode (the best level), an archived one may rank
 * higher: then the lookup that reads the archive decides (./archive-reads.ts).
 */
export async function cashInJson(ledger: LedgerContext, id: string): Promise<string | null> {
  const sql = ledger.storage.sql;
  const hot = sql
    .exec<{ seq: number | null; level: number | null; archived: number }>(cashInJsonSql.byId, id)
    .one();
  if (hot.level === 0 || !hot.archived)
    return hot.seq === null ? null : render(sql, cashInJsonSql.view, hot.seq);
  const row = await findCashInAnywhere(ledger, id);
  return row ? JSON.stringify(cashInView(row)) : null;
}

/** The Cash-Out `id` names as GET /cash-out/{id} answers it, or null (same rule as cashInJson). */
export async function cashOutJson(ledger: LedgerContext, id: string): Promise<string | null> {
  const sql = ledger.storage.sql;
  const hot = sql
    .exec<{ seq: number | null; level: number | null; archived: number }>(cashOutJsonSql.byId, id)
    .one();
  if (hot.level === 0 || !hot.archived)
    return hot.seq === null ? null : render(sql, cashOutJsonSql.view, hot.seq);
  const row = await findCashOutAnywhere(ledger, id);
  return row ? JSON.stringify(cashOutView(row)) : null;
}

/** The SQL rendering of the hot row at `seq`, as GET by id answers it (the view tests compare it with the TypeScript one). */
export const cashInJsonAt = (sql: SqlStorage, seq: number) => render(sql, cashInJsonSql.view, seq);
export const cashOutJsonAt = (sql: SqlStorage, seq: number) => render(sql, cashOutJsonSql.view, seq);
