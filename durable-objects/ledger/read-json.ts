/**
 * GET by id answered as JSON text (./view-sql.ts): one statement finds the row by its best id
 * level (./lookup.ts) and renders its view, so the ledger hands the Worker a string instead of an
 * object to clone across the RPC and serialize again.
 */
import { cashInView } from '../../src/domain/cash-in';
import { cashOutView } from '../../src/domain/cash-out';
import { findCashInAnywhere, findCashOutAnywhere } from './archive-reads';
import type { LedgerContext } from './context';
import { lookupSql } from './lookup';
import { CASH_IN_JSON, CASH_OUT_JSON } from './view-sql';

/** The hot Cash-In `?1` names, as JSON, its id level, and whether any archive segment exists. */
const CASH_IN_BY_ID = `SELECT ${CASH_IN_JSON} AS json, m.level AS level,
    EXISTS (SELECT 1 FROM archive_segments WHERE state = 'DONE') AS archived
  FROM (SELECT 1) LEFT JOIN (${lookupSql('cash_ins', 'seq, level')}) m
  LEFT JOIN cash_ins ON cash_ins.seq = m.seq`;

const CASH_OUT_BY_ID = `SELECT ${CASH_OUT_JSON} AS json, m.level AS level,
    EXISTS (SELECT 1 FROM archive_segments WHERE state = 'DONE') AS archived
  FROM (SELECT 1) LEFT JOIN (${lookupSql('cash_outs', 'seq, level')}) m
  LEFT JOIN cash_outs ON cash_outs.seq = m.seq`;

/**
 * The Cash-In `id` names as GET /cash-in/{id} answers it, or null. When the client has archived
 * Cash-Ins and the hot match is not an internalCode (the best level), an archived one may rank
 * higher: then the lookup that reads the archive decides (./archive-reads.ts).
 */
export async function cashInJson(ctx: LedgerContext, id: string): Promise<string | null> {
  const hot = ctx.storage.sql
    .exec<{ json: string | null; level: number | null; archived: number }>(CASH_IN_BY_ID, id)
    .one();
  if (hot.level === 0 || !hot.archived) return hot.json;
  const row = await findCashInAnywhere(ctx, id);
  return row ? JSON.stringify(cashInView(row)) : null;
}

/** The Cash-Out `id` names as GET /cash-out/{id} answers it, or null (same rule as cashInJson). */
export async function cashOutJson(ctx: LedgerContext, id: string): Promise<string | null> {
  const hot = ctx.storage.sql
    .exec<{ json: string | null; level: number | null; archived: number }>(CASH_OUT_BY_ID, id)
    .one();
  if (hot.level === 0 || !hot.archived) return hot.json;
  const row = await findCashOutAnywhere(ctx, id);
  return row ? JSON.stringify(cashOutView(row)) : null;
}
