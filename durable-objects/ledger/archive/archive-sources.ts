/**
 * What can move to the archive, one "source" per kind of row (docs/storage-schema.md, "Archive"):
 * its table and (time, seq) list order, which rows are closed before an instant, the ids a GET finds
 * it by, and how it counts in a summary. archive.ts moves any source the same crash-safe way.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { internalCodeOfTxId } from '../../../src/domain/ids';
import type { LedgerContext } from '../context';
import type { CrashPoint } from '../crash-points';
import { cashInWorkQuery } from '../scheduler';
import { accounts, cashIns, cashOuts, ledgerEntries } from '../schema';
import type { IndexTable } from './archive-index';

/** One summary contribution: the row's status, settling bank (paid ones only) and amount. */
export interface Counted {
  status: string;
  ispb: string | null;
  bank: string | null;
  amount: number;
}

export interface ArchiveSource {
  /** Segment kind in the manifest (archive_segments.kind) and its key prefix in R2. */
  kind: string;
  table: SQLiteTable;
  time: SQLiteColumn;
  seq: SQLiteColumn;
  /** Which rows of the table are this source's (one account's entries); undefined = all. */
  scope?: SQL;
  timeOf(row: Record<string, unknown>): number;
  /** Rows that no longer change and are older than `before`. */
  eligible(before: number): SQL;
  /** Every id a GET by id may name the row by (archive-index.ts). */
  ids(row: Record<string, unknown>): string[];
  /** Summary contribution; undefined for rows no summary counts (ledger entries). */
  counted?(row: Record<string, unknown>): Counted;
  crashPoint: CrashPoint;
  /** A source that picks its own batch (deliveries: from a queue), not by (time, seq) before an instant. */
  nextBatch?(ctx: LedgerContext): (Record<string, unknown> & { seq: number })[];
  /** Where its ids are indexed (archive-index.ts); archive_index when unset. */
  indexTable?: IndexTable;
  /** More to change in the transaction that deletes the rows. */
  removed?(ctx: LedgerContext, rows: Record<string, unknown>[]): void;
}

interface Settlement {
  ispb?: string;
  bank?: string;
}

/** A status counts its bank only when its money reached one (the summary's settlement). */
function countedAs(settledStatus: string) {
  return (row: Record<string, unknown>): Counted => {
    const settled = row.status === settledStatus ? ((row.settlement as Settlement | null) ?? null) : null;
    return {
      status: row.status as string,
      ispb: settled ? (settled.ispb ?? null) : null,
      bank: settled ? (settled.bank ?? null) : null,
      amount: row.amount as number,
    };
  };
}

function distinctIds(row: Record<string, unknown>, keys: string[]): string[] {
  const ids = keys.map((k) => row[k]).filter((v): v is string => typeof v === 'string' && v !== '');
  return [...new Set(ids)];
}

/** The instant a closed Cash-In stopped changing, or null while it still may (not eligible). */
const cashInSettledAt = sql`CASE
  WHEN ${cashIns.status} = 'PAID' AND ${cashIns.refundState} IN ('NONE', 'FAILED') AND ${cashIns.endToEndId} IS NOT NULL THEN ${cashIns.paidAt}
  WHEN ${cashIns.status} = 'REFUNDED' AND ${cashIns.refundState} = 'DONE' THEN ${cashIns.refundedAt}
  WHEN ${cashIns.status} = 'CANCELLED' THEN ${cashIns.cancelledAt}
  WHEN ${cashIns.status} = 'EXPIRED' THEN ${cashIns.expiresAt}
  ELSE NULL END`;

/** Work still scheduled on a closed row (a charge removal being retried, a superseded devolution
 * followed): it stays hot until that is done (scheduler.ts). */
const cashInWork = cashInWorkQuery(cashIns.transactionId);

/** The ids a GET /cash-in/{id} or /cash-out/{id} may name a transaction by (lookup.ts levels). */
const TRANSACTION_IDS = [
  'internalCode',
  'transactionId',
  'externalReference',
  'endToEndId',
  'refundEndToEndId',
];

export const cashInSource: ArchiveSource = {
  kind: 'cash-in',
  table: cashIns,
  time: cashIns.requestedAt,
  seq: cashIns.seq,
  timeOf: (row) => row.requestedAt as number,
  eligible: (before) =>
    sql`${cashIns.requestedAt} < ${before} AND ${cashInSettledAt} < ${before} AND NOT EXISTS (${cashInWork})`,
  // A TxId carrying the row's internalCode is found through the code's entry (archive-index.ts).
  ids: (row) =>
    distinctIds(row, TRANSACTION_IDS).filter(
      (id) => id !== row.transactionId || internalCodeOfTxId(id) !== row.internalCode,
    ),
  counted: countedAs('PAID'),
  crashPoint: 'archive.segment-written',
};

/** A closed Cash-Out: done with its partner (a COMPLETED one may still come back, rehydrated). */
const cashOutSettledAt = sql`CASE
  WHEN ${cashOuts.status} = 'COMPLETED' AND ${cashOuts.stage} = 'DONE' THEN ${cashOuts.completedAt}
  WHEN ${cashOuts.status} = 'CANCELLED' THEN ${cashOuts.cancelledAt}
  WHEN ${cashOuts.status} = 'REFUNDED' THEN ${cashOuts.refundedAt}
  ELSE NULL END`;

export const cashOutSource: ArchiveSource = {
  kind: 'cash-out',
  table: cashOuts,
  time: cashOuts.requestedAt,
  seq: cashOuts.seq,
  timeOf: (row) => row.requestedAt as number,
  eligible: (before) =>
    sql`${cashOuts.requestedAt} < ${before} AND ${cashOutSettledAt} < ${before} AND ${cashOuts.nextAt} IS NULL`,
  ids: (row) => distinctIds(row, TRANSACTION_IDS),
  counted: countedAs('COMPLETED'),
  crashPoint: 'archive.cash-out-written',
};

/**
 * An account's ledger entries older than `before`: immutable once posted, so every one is eligible
 * (a statement and a balance `at` read them back; the balance itself lives on the account row).
 */
export function ledgerSource(accountNumber: string): ArchiveSource {
  return {
    kind: `ledger:${accountNumber}`,
    table: ledgerEntries,
    time: ledgerEntries.createdAt,
    seq: ledgerEntries.seq,
    scope: sql`${ledgerEntries.accountNumber} = ${accountNumber}`,
    timeOf: (row) => row.createdAt as number,
    eligible: (before) =>
      sql`${ledgerEntries.accountNumber} = ${accountNumber} AND ${ledgerEntries.createdAt} < ${before}`,
    // A devolution's entry id is looked up to book it once (bank-returns.ts): it stays findable.
    ids: (row) => (row.type === 'PIX_REFUND_OUT' ? [row.id as string] : []),
    crashPoint: 'archive.ledger-written',
  };
}

/** Every source of this object, in the order a step tries them. */
export function archiveSources(ctx: LedgerContext): ArchiveSource[] {
  const numbers = ctx.db.select({ number: accounts.number }).from(accounts).orderBy(sql`rowid`).all();
  return [cashInSource, cashOutSource, ...numbers.map((a) => ledgerSource(a.number))];
}
