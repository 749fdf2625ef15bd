/**
 * Cash-Out rows of one client: lookups (docs/contract.md, Lookup by id), the 202's insert (one for a
 * single Cash-Out and a batch's items) and its uniqueness checks.
 */
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { CASH_OUT_FIELDS } from '../../../src/domain/cash-out';
import type { ViewField } from '../../../src/domain/view-fields';
import type { ArchivableTable } from '../archivable';
import { ANY_SEGMENT_DONE } from '../archive/archive-store';
import { insertStoredRows, type LedgerDb, type StoredRow, sqlOf } from '../db';
import type { RowSelection } from '../reads/keyset';
import { findByAnyId, lookupSql } from '../reads/lookup';
import { viewJson } from '../reads/view-sql';
import { cashOuts } from '../schema';

export type CashOutRow = typeof cashOuts.$inferSelect;

export function findCashOut(db: LedgerDb, id: string): CashOutRow | undefined {
  return findByAnyId<CashOutRow>(db, cashOuts, cashOuts, id);
}

// The 202's statements run on the SQL API directly (fixed texts): drizzle's building and mapping
// cost more than SQLite takes to run them.

/** Whether a new Cash-Out's externalReference is already held by a hot Cash-Out. */
export function cashOutReferenceTaken(db: LedgerDb, externalReference: string): boolean {
  return (
    sqlOf(db).exec('SELECT 1 FROM cash_outs WHERE external_reference = ?', externalReference).toArray()
      .length > 0
  );
}

/** What the API has not decided yet about a new Cash-Out: NULL until the executor decides it. */
export const NOT_DECIDED = {
  payeeBank: null,
  partnerIspb: null,
  settlement: null,
  endToEndId: null,
  refundEndToEndId: null,
  failureCode: null,
  reason: null,
  completedAt: null,
  cancelledAt: null,
  refundedAt: null,
} as const;

/** The columns a new Cash-Out is written with; what the API has not decided yet starts NULL. */
const NEW_CASH_OUT_COLUMNS = [
  'transactionId',
  'internalCode',
  'externalReference',
  'status',
  'stage',
  'amount',
  'description',
  'webhookUrl',
  'payeeName',
  'payeeDocument',
  'destination',
  'destinationKey',
  'requestedAt',
  'nextAt',
] as const satisfies readonly Exclude<keyof CashOutRow, 'seq' | keyof typeof NOT_DECIDED>[];

/** A new Cash-Out's columns. */
export type NewCashOut = Pick<CashOutRow, (typeof NEW_CASH_OUT_COLUMNS)[number]>;

const columns = getTableColumns(cashOuts);

/**
 * Every new Cash-Out, a single one (a batch of one) or a batch's items, in one statement over a JSON
 * list of objects keyed by column name: the column list and the keys come from the drizzle table,
 * so nothing positional must agree across files. Rows get their seqs in list order.
 */
const INSERT_CASH_OUTS = `INSERT INTO cash_outs (${NEW_CASH_OUT_COLUMNS.map((k) => columns[k].name).join(', ')})
  SELECT ${NEW_CASH_OUT_COLUMNS.map((k) => `value ->> '$.${columns[k].name}'`).join(', ')}
  FROM json_each(?) ORDER BY key RETURNING seq, transaction_id AS id`;

/** Inserts `rows` in order (one statement); each row's seq by its transactionId. */
export function insertCashOuts(sql: SqlStorage, rows: readonly NewCashOut[]): { seq: number; id: string }[] {
  return sql
    .exec<{ seq: number; id: string }>(INSERT_CASH_OUTS, encodeRows(rows, NEW_CASH_OUT_COLUMNS))
    .toArray();
}

type CashOutColumn = keyof typeof columns;

/** Rows as one JSON list of objects keyed by column name; a JSON column as the text drizzle writes. */
function encodeRows<K extends CashOutColumn>(
  rows: readonly Pick<CashOutRow, K>[],
  keys: readonly K[],
): string {
  return JSON.stringify(
    rows.map((row) => {
      const stored: Record<string, unknown> = {};
      for (const k of keys)
        stored[columns[k].name] = row[k] === null ? null : columns[k].mapToDriverValue(row[k]);
      return stored;
    }),
  );
}

/** `column = j.value ->> '$.column'` for each key: a set-based write over encodeRows' list `j`. */
const setFromJson = (keys: readonly CashOutColumn[]) =>
  keys.map((k) => `${columns[k].name} = j.value ->> '$.${columns[k].name}'`).join(', ');

const RESERVATION_COLUMNS = ['seq', 'partnerIspb', 'settlement', 'stage', 'status', 'nextAt'] as const;
/** What a reservation decides about a Cash-Out (cash-out-book.ts). */
export type Reservation = Pick<CashOutRow, (typeof RESERVATION_COLUMNS)[number]>;
const RESERVED_MANY = `UPDATE cash_outs SET ${setFromJson(RESERVATION_COLUMNS.slice(1))}
  FROM json_each(?) AS j WHERE cash_outs.seq = j.value ->> '$.seq'`;

const COMPLETION_COLUMNS = ['seq', 'endToEndId', 'payeeBank'] as const;
/** What the partner's settlement tells about a Cash-Out (cash-out-book.ts). */
export type Completion = Pick<CashOutRow, (typeof COMPLETION_COLUMNS)[number]>;
const COMPLETED_MANY = `UPDATE cash_outs SET status = 'COMPLETED', stage = 'DONE', completed_at = ?1, next_at = NULL,
  ${setFromJson(COMPLETION_COLUMNS.slice(1))}
  FROM json_each(?2) AS j WHERE cash_outs.seq = j.value ->> '$.seq'`;

export function updateCashOut(db: LedgerDb, seq: number, changes: Partial<CashOutRow>): CashOutRow {
  return db.update(cashOuts).set(changes).where(eq(cashOuts.seq, seq)).returning().get() as CashOutRow;
}

/**
 * The executor's Cash-Out statements (cash-out-book.ts): fixed texts on the SQL API, kept off
 * drizzle because the bench measured them on the Cash-Out path.
 */
export const cashOutWrites = {
  /** Moves many Cash-Outs at once: `stage` (unchanged when null), and when the executor takes them next. */
  move(sql: SqlStorage, seqs: number[], stage: string | null, nextAt: number): void {
    sql.exec(
      `UPDATE cash_outs SET stage = coalesce(?, stage), next_at = ?
       WHERE seq IN (SELECT value FROM json_each(?))`,
      stage,
      nextAt,
      JSON.stringify(seqs),
    );
  },
  reserved(
    sql: SqlStorage,
    seq: number,
    set: { partnerIspb: string; settlement: string; stage: string; status: string; nextAt: number | null },
  ): void {
    sql.exec(
      `UPDATE cash_outs SET partner_ispb = ?, settlement = ?, stage = ?, status = ?, next_at = ?
       WHERE seq = ?`,
      set.partnerIspb,
      set.settlement,
      set.stage,
      set.status,
      set.nextAt,
      seq,
    );
  },
  /** Many reservations in one statement, each row matched by its seq. */
  reservedMany(sql: SqlStorage, rows: readonly Reservation[]): void {
    if (rows.length === 0) return;
    sql.exec(RESERVED_MANY, encodeRows(rows, RESERVATION_COLUMNS));
  },
  /**
   * Of `rows`, the seqs that have an earlier, live Cash-Out of the same amount to the same payee
   * since their own `since`, in one statement, counting only Cash-Outs outside `rows` (the caller
   * decides among them).
   */
  twinsOutside(
    sql: SqlStorage,
    rows: readonly { destinationKey: string; since: number; amount: number; seq: number }[],
  ): Set<number> {
    const list = JSON.stringify(rows.map((r) => [r.destinationKey, r.since, r.amount, r.seq]));
    return new Set(
      sql
        .exec<{ seq: number }>(
          `SELECT j.value ->> '$[3]' AS seq FROM json_each(?1) AS j WHERE EXISTS (
             SELECT 1 FROM cash_outs c WHERE c.destination_key = j.value ->> '$[0]'
               AND c.requested_at >= j.value ->> '$[1]' AND c.amount = j.value ->> '$[2]'
               AND c.status != 'CANCELLED' AND c.seq < j.value ->> '$[3]'
               AND c.seq NOT IN (SELECT value ->> '$[3]' FROM json_each(?1)))`,
          list,
        )
        .toArray()
        .map((r) => r.seq),
    );
  },
  cancelled(sql: SqlStorage, seq: number, failureCode: string, at: number): void {
    sql.exec(
      `UPDATE cash_outs SET status = 'CANCELLED', stage = 'DONE', failure_code = ?, cancelled_at = ?,
       next_at = NULL WHERE seq = ?`,
      failureCode,
      at,
      seq,
    );
  },
  completed(sql: SqlStorage, seq: number, endToEndId: string, at: number, payeeBank: string | null): void {
    sql.exec(
      `UPDATE cash_outs SET status = 'COMPLETED', stage = 'DONE', end_to_end_id = ?, completed_at = ?,
       payee_bank = ?, next_at = NULL WHERE seq = ?`,
      endToEndId,
      at,
      payeeBank,
      seq,
    );
  },
  /** Many completions at `at` in one statement, each row matched by its seq. */
  completedMany(sql: SqlStorage, rows: readonly Completion[], at: number): void {
    if (rows.length === 0) return;
    sql.exec(COMPLETED_MANY, at, encodeRows(rows, COMPLETION_COLUMNS));
  },
};

/** Every column of cash_outs under its CashOutRow name (the JSON ones parsed by cashOutOf). */
const CASH_OUT_COLUMNS = `seq, transaction_id AS transactionId, internal_code AS internalCode,
  external_reference AS externalReference, status, stage, amount, description, webhook_url AS webhookUrl,
  payee_name AS payeeName, payee_document AS payeeDocument, destination, destination_key AS destinationKey,
  payee_bank AS payeeBank, partner_ispb AS partnerIspb, settlement, end_to_end_id AS endToEndId,
  refund_end_to_end_id AS refundEndToEndId, failure_code AS failureCode, reason,
  requested_at AS requestedAt, completed_at AS completedAt, cancelled_at AS cancelledAt,
  refunded_at AS refundedAt, next_at AS nextAt`;

type StoredCashOut = Omit<CashOutRow, 'destination' | 'payeeBank' | 'settlement'> & {
  destination: string;
  payeeBank: string | null;
  settlement: string | null;
};

function cashOutOf(row: StoredCashOut): CashOutRow {
  return {
    ...row,
    destination: JSON.parse(row.destination),
    payeeBank: row.payeeBank === null ? null : JSON.parse(row.payeeBank),
    settlement: row.settlement === null ? null : JSON.parse(row.settlement),
  };
}

/**
 * The executor's next Cash-Outs: due by `now`, earliest first, at most `limit`. A fixed text on the
 * SQL API: every pass reads every Cash-Out in flight (a payment is polled until it settles).
 */
export function cashOutsDue(db: LedgerDb, now: number, limit: number): CashOutRow[] {
  return sqlOf(db)
    .exec<StoredCashOut>(
      // seq breaks ties: a batch's items, all due at once, are reserved in item order.
      `SELECT ${CASH_OUT_COLUMNS} FROM cash_outs WHERE next_at <= ? ORDER BY next_at, seq LIMIT ?`,
      now,
      limit,
    )
    .toArray()
    .map(cashOutOf);
}

/**
 * Centavos of the Cash-Outs asked of one partner and not yet settled here (SENDING: asked, its answer
 * awaited or lost; SENT: taken). Live ones only, by the executor's partial index (next_at is set
 * until a Cash-Out is DONE).
 */
export function cashOutsAskedAt(db: LedgerDb, ispb: string): number {
  return sqlOf(db)
    .exec<{ total: number }>(
      `SELECT coalesce(sum(amount), 0) AS total FROM cash_outs
       WHERE next_at IS NOT NULL AND stage IN ('SENDING', 'SENT') AND partner_ispb = ?`,
      ispb,
    )
    .one().total;
}

/** When the executor has a Cash-Out to take next, or undefined when none waits. */
export function nextCashOutDue(db: LedgerDb): number | undefined {
  const row = sqlOf(db)
    .exec<{ at: number | null }>('SELECT min(next_at) AS at FROM cash_outs WHERE next_at IS NOT NULL')
    .toArray()[0];
  return row?.at ?? undefined;
}

/** Of `values`, those a live Cash-Out already has in `column` (one statement). */
function valuesTaken(sql: SqlStorage, column: 'external_reference' | 'internal_code', values: string[]) {
  return new Set(
    sql
      .exec<{ v: string }>(
        `SELECT ${column} AS v FROM cash_outs WHERE ${column} IN (SELECT value FROM json_each(?))`,
        JSON.stringify(values),
      )
      .toArray()
      .map((r) => r.v),
  );
}

/** Of `refs`, the external references a live Cash-Out already has (a batch's check, one statement). */
export const externalReferencesTaken = (sql: SqlStorage, refs: string[]): Set<string> =>
  valuesTaken(sql, 'external_reference', refs);

/** Cash-Outs by status over a seq range (a batch's items). */
export function statusCountsBetween(
  sql: SqlStorage,
  first: number,
  last: number,
): { status: string; n: number }[] {
  return sql
    .exec<{ status: string; n: number }>(
      'SELECT status, count(*) AS n FROM cash_outs WHERE seq BETWEEN ? AND ? GROUP BY status',
      first,
      last,
    )
    .toArray();
}

/** A closed Cash-Out: done with its partner (a COMPLETED one may still come back, rehydrated). */
const cashOutSettledAt = sql`CASE
  WHEN ${cashOuts.status} = 'COMPLETED' AND ${cashOuts.stage} = 'DONE' THEN ${cashOuts.completedAt}
  WHEN ${cashOuts.status} = 'CANCELLED' THEN ${cashOuts.cancelledAt}
  WHEN ${cashOuts.status} = 'REFUNDED' THEN ${cashOuts.refundedAt}
  ELSE NULL END`;

/** Cash-Outs as the archive moves them (archivable.ts), in list order (requested_at, seq). */
export const cashOutArchive: ArchivableTable = {
  table: cashOuts,
  time: cashOuts.requestedAt,
  seq: cashOuts.seq,
  eligible: (before) =>
    sql`${cashOuts.requestedAt} < ${before} AND ${cashOutSettledAt} < ${before} AND ${cashOuts.nextAt} IS NULL`,
};

/** Whether the Cash-Out of this transactionId is hot (a unique-index probe). */
export function cashOutIsHot(sqlApi: SqlStorage, transactionId: string): boolean {
  return sqlApi.exec('SELECT 1 FROM cash_outs WHERE transaction_id = ?', transactionId).toArray().length > 0;
}

/** A Cash-Out's row as stored (column names): the template the bench's history seeding copies. */
export function storedCashOut(sqlApi: SqlStorage, transactionId: string): StoredRow | undefined {
  return sqlApi
    .exec<StoredRow>('SELECT * FROM cash_outs WHERE transaction_id = ?', transactionId)
    .toArray()[0];
}

/** How many rows are hot (bench:footprint). */
export function hotCashOuts(sqlApi: SqlStorage): number {
  return sqlApi.exec<{ n: number }>('SELECT count(*) AS n FROM cash_outs').one().n;
}

/** Cash-Out rows as stored (seq left to SQLite), set-based: the bench's history seeding. */
export function insertStoredCashOuts(sqlApi: SqlStorage, rows: StoredRow[]): void {
  insertStoredRows(sqlApi, 'cash_outs', rows);
}

/** cashOutView(row) as JSON text, over the columns of cash_outs (reads/view-sql.ts compiles it). */
export const CASH_OUT_JSON = viewJson(CASH_OUT_FIELDS as readonly ViewField<unknown>[], cashOuts);

/** The statements that answer with a Cash-Out's view as JSON text (as cash-in-store.ts cashInJsonSql). */
export const cashOutJsonSql = {
  byId: `SELECT m.seq AS seq, m.level AS level, ${ANY_SEGMENT_DONE} AS archived
  FROM (SELECT 1) LEFT JOIN (${lookupSql('cash_outs', 'seq, level')}) m`,
  view: `SELECT ${CASH_OUT_JSON} AS json FROM cash_outs WHERE seq = ?`,
  hot: `SELECT ${CASH_OUT_JSON} AS json FROM json_each(?1) j CROSS JOIN cash_outs ON cash_outs.seq = j.value ORDER BY j.key`,
  seq: { key: 'seq', sql: sql`${cashOuts.seq}` } as RowSelection,
};

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allCashOuts(db: LedgerDb): CashOutRow[] {
  return db.select().from(cashOuts).orderBy(cashOuts.seq).all();
}
