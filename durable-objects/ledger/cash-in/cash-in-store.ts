/** Cash-In rows of one client: lookups with the precedence of docs/contract.md, Lookup by id. */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { CASH_IN_FIELDS, cashInView } from '../../../src/domain/cash-in';
import { planPage, shapePage } from '../../../src/domain/pagination';
import { failure } from '../../../src/domain/result';
import type { ViewField } from '../../../src/domain/view-fields';
import type { ArchivableTable } from '../archivable';
import { ANY_SEGMENT_DONE } from '../archive/archive-store';
import { insertStoredRows, type LedgerDb, type StoredRow, sqlOf } from '../db';
import type { LedgerContext } from '../ledger-context';
import { ph, prepared } from '../prepared';
import { keysetRows, type PageInput, type RowSelection } from '../reads/keyset';
import { findByAnyId, lookupSql } from '../reads/lookup';
import { viewJson } from '../reads/view-sql';
import { cashInWorkQuery } from '../scheduler';
import { archivedDisputes, cashIns } from '../schema';
import { emitWebhook, type WebhookEvent } from '../webhooks/events';

export type CashInRow = typeof cashIns.$inferSelect;
type Db = LedgerDb;

export function findCashIn(db: Db, id: string): CashInRow | undefined {
  return findByAnyId<CashInRow>(db, cashIns, cashIns, id);
}

/** Whether a new Cash-In's externalReference is already held by a hot Cash-In (every POST /cash-in). */
export function referenceTaken(db: Db, externalReference: string): boolean {
  const query = prepared(db, 'cashIns.byExternalReference', () =>
    db
      .select({ seq: cashIns.seq })
      .from(cashIns)
      .where(eq(cashIns.externalReference, ph('externalReference')))
      .prepare(),
  );
  return query.get({ externalReference }) !== undefined;
}

/** The Cash-In event of a transition, for its webhookUrl (same transaction). */
export function emitCashIn(ledger: LedgerContext, row: CashInRow, eventType: string, at: number): void {
  emitWebhook(ledger, cashInEvent(row, eventType, at));
}

/** The webhook event of a Cash-In transition. */
export function cashInEvent(row: CashInRow, eventType: string, at: number): WebhookEvent {
  return { aggregateId: row.transactionId, eventType, data: cashInView(row), webhookUrl: row.webhookUrl, at };
}

/** One Cash-In row changed by its seq, returned as stored. */
export function updateCashIn(ledger: LedgerContext, seq: number, changes: Partial<CashInRow>): CashInRow {
  return ledger.db.update(cashIns).set(changes).where(eq(cashIns.seq, seq)).returning().get() as CashInRow;
}

export function cashInNotFound() {
  return failure({ code: 'CASHIN_NOT_FOUND', detail: 'No Cash-In matches this id' });
}

/** The insert of a new Cash-In, built once per object (it runs on every POST /cash-in). */
export function insertCashIn(db: Db) {
  return prepared(db, 'cashIns.insert', () =>
    db
      .insert(cashIns)
      .values({
        transactionId: ph('transactionId'),
        internalCode: ph('internalCode'),
        externalReference: ph('externalReference'),
        status: ph('status'),
        amount: ph('amount'),
        payerName: ph('payerName'),
        payerDocument: ph('payerDocument'),
        partnerIspb: ph('partnerIspb'),
        webhookUrl: ph('webhookUrl'),
        redirectUrl: ph('redirectUrl'),
        flow: ph('flow'),
        pspLocation: ph('pspLocation'),
        requestedAt: ph('requestedAt'),
        expiresAt: ph('expiresAt'),
      })
      .returning()
      .prepare(),
  );
}

/** A paid Cash-In at a partner, found by its end-to-end id (the daily reconciliation). */
export function paidCashInAt(
  db: Db,
  ispb: string,
  endToEndId: string,
): { amount: number; id: string } | undefined {
  return sqlOf(db)
    .exec<{ amount: number; id: string }>(
      `SELECT amount, transaction_id AS id FROM cash_ins
       WHERE end_to_end_id = ? AND partner_ispb = ? AND paid_at IS NOT NULL`,
      endToEndId,
      ispb,
    )
    .toArray()[0];
}

/** The hot Cash-In with this internalCode only (what a BR Code location names). */
export function cashInByInternalCode(db: Db, internalCode: string): CashInRow | undefined {
  return db.select().from(cashIns).where(eq(cashIns.internalCode, internalCode)).get();
}

/** The instant a closed Cash-In stopped changing, or null while it still may (not eligible: an open dispute too). */
const cashInSettledAt = sql`CASE
  WHEN ${cashIns.status} = 'PAID' AND ${cashIns.refundState} IN ('NONE', 'FAILED') AND ${cashIns.endToEndId} IS NOT NULL
    AND coalesce(${cashIns.disputeStatus}, '') NOT IN ('OPEN', 'DEFENDED') THEN coalesce(${cashIns.disputeClosedAt}, ${cashIns.paidAt})
  WHEN ${cashIns.status} = 'REFUNDED' AND ${cashIns.refundState} = 'DONE' THEN ${cashIns.refundedAt}
  WHEN ${cashIns.status} = 'CANCELLED' THEN ${cashIns.cancelledAt}
  WHEN ${cashIns.status} = 'EXPIRED' THEN ${cashIns.expiresAt}
  ELSE NULL END`;

/** Work still scheduled on a closed row (a charge removal being retried, a superseded devolution
 * followed): it stays hot until that is done (scheduler.ts). */
const cashInWork = cashInWorkQuery(cashIns.transactionId);

/** Cash-Ins as the archive moves them (archivable.ts), in list order (requested_at, seq). */
export const cashInArchive: ArchivableTable = {
  table: cashIns,
  time: cashIns.requestedAt,
  seq: cashIns.seq,
  eligible: (before) =>
    sql`${cashIns.requestedAt} < ${before} AND ${cashInSettledAt} < ${before} AND NOT EXISTS (${cashInWork})`,
};

/** Whether the Cash-In of this transactionId is hot (a unique-index probe). */
export function cashInIsHot(sqlApi: SqlStorage, transactionId: string): boolean {
  return sqlApi.exec('SELECT 1 FROM cash_ins WHERE transaction_id = ?', transactionId).toArray().length > 0;
}

/** A Cash-In's row as stored (column names): the template the bench's history seeding copies. */
export function storedCashIn(sqlApi: SqlStorage, transactionId: string): StoredRow | undefined {
  return sqlApi
    .exec<StoredRow>('SELECT * FROM cash_ins WHERE transaction_id = ?', transactionId)
    .toArray()[0];
}

/** How many rows are hot (bench:footprint). */
export function hotCashIns(sqlApi: SqlStorage): number {
  return sqlApi.exec<{ n: number }>('SELECT count(*) AS n FROM cash_ins').one().n;
}

/** Cash-In rows as stored (seq left to SQLite), set-based: the bench's history seeding. */
export function insertStoredCashIns(sqlApi: SqlStorage, rows: StoredRow[]): void {
  insertStoredRows(sqlApi, 'cash_ins', rows);
}

/** cashInView(row) as JSON text, over the columns of cash_ins (reads/view-sql.ts compiles it). */
export const CASH_IN_JSON = viewJson(CASH_IN_FIELDS as readonly ViewField<unknown>[], cashIns);

/**
 * The statements that answer with a Cash-In's view as JSON text (reads/read-json.ts: GET by id;
 * reads/transaction-queries.ts: list pages). `byId`: the hot row `?1` names (seq, id level) and
 * whether any archive segment exists; the lookup and the rendering (`view`) are two statements on
 * purpose, as for list pages: in one statement its execution cost more than the two (SQLite exec
 * 12.5 % → 6.9 % of the profile). `hot`: views of hot rows by seq, in the order given (a JSON array
 * of seqs), kept apart from the page query on purpose: with the view expression in the range query
 * itself, executing it cost far more than rendering alone (a 1-item page: 33 % of its profile in
 * SQLite's exec, 14 % split), most likely the statement being planned again for new bound values.
 * CROSS JOIN keeps json_each the outer loop (a plain JOIN measured ~3x slower for a 1-item page).
 * `seq`: what a list page reads of a row (keys only).
 */
export const cashInJsonSql = {
  byId: `SELECT m.seq AS seq, m.level AS level, ${ANY_SEGMENT_DONE} AS archived
  FROM (SELECT 1) LEFT JOIN (${lookupSql('cash_ins', 'seq, level', true)}) m`,
  view: `SELECT ${CASH_IN_JSON} AS json FROM cash_ins WHERE seq = ?`,
  hot: `SELECT ${CASH_IN_JSON} AS json FROM json_each(?1) j CROSS JOIN cash_ins ON cash_ins.seq = j.value ORDER BY j.key`,
  seq: { key: 'seq', sql: sql`${cashIns.seq}` } as RowSelection,
};

/** GET /disputes' filters: a dispute status, the settling partner's ISPB (the operator's list). */
export interface DisputeFilter {
  status?: string;
  ispb?: string;
}

/** A disputed Cash-In on a page: its view as JSON text when hot, its transactionId when archived. */
export type DisputeItem = { json: string } | { archived: string };

/**
 * A page of disputed Cash-Ins by when the dispute opened (GET /disputes), with their sort keys: hot
 * rows and the archived ones archived_disputes keeps (a row back hot is read hot), merged by
 * (openedAt, seq). The caller reads the archived views (reads/dispute-queries.ts).
 */
export function disputePage(ledger: LedgerContext, input: PageInput, filter: DisputeFilter) {
  const scope = and(
    isNotNull(cashIns.disputeId),
    filter.status ? eq(cashIns.disputeStatus, filter.status as 'OPEN') : undefined,
    filter.ispb ? eq(cashIns.partnerIspb, filter.ispb) : undefined,
  );
  const hot = keysetRows<number>(
    ledger.db,
    cashIns,
    cashIns.disputeOpenedAt,
    cashIns.seq,
    input,
    scope,
    cashInJsonSql.seq,
  );
  const stillArchived = sql`NOT EXISTS (SELECT 1 FROM cash_ins c WHERE c.seq = ${archivedDisputes.seq})`;
  const archived = keysetRows<string>(
    ledger.db,
    archivedDisputes,
    archivedDisputes.openedAt,
    archivedDisputes.seq,
    input,
    and(
      stillArchived,
      filter.status ? eq(archivedDisputes.status, filter.status) : undefined,
      filter.ispb ? eq(archivedDisputes.partnerIspb, filter.ispb) : undefined,
    ),
    { key: 'archived-dispute', sql: sql`${archivedDisputes.transactionId}` },
  );
  const sign = planPage(input.order, input.position).scan === 'ASC' ? 1 : -1;
  const keyed = [
    ...hot.map((r) => ({ hot: r.row, time: r.time, seq: r.seq })),
    ...archived.map((r) => ({ hot: undefined, archived: r.row, time: r.time, seq: r.seq })),
  ]
    .sort((a, b) => sign * (a.time - b.time || a.seq - b.seq))
    .slice(0, input.limit + 1);
  const seqs = JSON.stringify(keyed.flatMap((r) => (r.hot === undefined ? [] : [r.hot])));
  const texts = ledger.storage.sql.exec<{ json: string }>(cashInJsonSql.hot, seqs).toArray();
  let next = 0;
  const items = keyed.map((r) => ({
    row: (r.hot === undefined ? { archived: r.archived } : { json: texts[next++]?.json }) as DisputeItem,
    time: r.time,
    seq: r.seq,
  }));
  return shapePage(items, input.limit, input.position);
}

/** Inside the archive's deleting transaction: disputed rows leaving stay listed by GET /disputes. */
export function indexArchivedDisputes(ledger: LedgerContext, rows: Record<string, unknown>[]): void {
  for (const row of rows) {
    if (row.disputeId == null) continue;
    const fields = {
      transactionId: row.transactionId as string,
      openedAt: row.disputeOpenedAt as number,
      status: row.disputeStatus as string,
      partnerIspb: row.partnerIspb as string,
    };
    ledger.db
      .insert(archivedDisputes)
      .values({ seq: row.seq as number, ...fields })
      .onConflictDoUpdate({ target: archivedDisputes.seq, set: fields })
      .run();
  }
}

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allCashIns(db: Db): CashInRow[] {
  return db.select().from(cashIns).orderBy(cashIns.seq).all();
}
