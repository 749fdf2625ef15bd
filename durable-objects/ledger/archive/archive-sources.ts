/**
 * What can move to the archive, one "source" per kind of row (docs/storage-schema.md, "Archive"):
 * its table as its own store describes it (../archivable.ts: the (time, seq) list order, which rows
 * are closed before an instant), the ids a GET finds it by, and how it counts in a summary.
 * archive.ts moves any source the same crash-safe way.
 */
import type { ArchivableRow, ArchivableTable } from '../archivable';
import { cashInArchive, indexArchivedDisputes } from '../cash-in/cash-in-store';
import { cashOutArchive } from '../cash-out/cash-out-store';
import type { CrashPoint } from '../crash-points';
import { allAccounts, entryArchive } from '../ledger/ledger-store';
import type { LedgerContext } from '../ledger-context';
import { registeredUnderCode } from './archive-index';

/** One summary contribution: the row's status, settling bank (paid ones only) and amount. */
export interface Counted {
  status: string;
  ispb: string | null;
  bank: string | null;
  amount: number;
}

/** A kind of row the archive moves: its store's table (archivable.ts) and what the archive adds. */
export interface ArchiveSource extends ArchivableTable {
  /** Segment kind in the manifest (archive-store.ts) and its key prefix in R2. */
  kind: string;
  timeOf(row: Record<string, unknown>): number;
  /** Every id the row is found by, registered in the archive registry (archive-index.ts): a GET's ids, a delivery's transaction. */
  ids(row: Record<string, unknown>): string[];
  /** Summary contribution; undefined for rows no summary counts (ledger entries). */
  counted?(row: Record<string, unknown>): Counted;
  crashPoint: CrashPoint;
  /** A source that picks its own rows (deliveries: from a queue), not by (time, seq) before an instant. */
  nextRows?(ledger: LedgerContext): ArchivableRow[];
  /**
   * Its externalReferences go to the object's filter (reference-filter.ts): Cash-Ins only. A
   * Cash-Out's create asks the archive registry instead (docs/storage-schema.md, "externalReference filter").
   */
  filtersReferences?: boolean;
  /** More to change in the transaction that deletes the rows. */
  removed?(ledger: LedgerContext, rows: Record<string, unknown>[]): void;
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

/** The ids a GET /cash-in/{id} or /cash-out/{id} may name a transaction by (lookup.ts levels). */
const TRANSACTION_IDS = [
  'internalCode',
  'transactionId',
  'externalReference',
  'endToEndId',
  'refundEndToEndId',
  // Cash-Ins: the id a refund's 202 answered, once the network's id replaced it.
  'refundRequestId',
];

export const cashInSource: ArchiveSource = {
  ...cashInArchive,
  kind: 'cash-in',
  timeOf: (row) => row.requestedAt as number,
  // A TxId carrying the row's random-form internalCode is found through the code's entry (archive-index.ts).
  ids: (row) =>
    distinctIds(row, TRANSACTION_IDS).filter(
      (id) => id !== row.transactionId || registeredUnderCode(id) !== row.internalCode,
    ),
  counted: countedAs('PAID'),
  crashPoint: 'archive.segment-written',
  filtersReferences: true,
  removed: indexArchivedDisputes,
};

export const cashOutSource: ArchiveSource = {
  ...cashOutArchive,
  kind: 'cash-out',
  timeOf: (row) => row.requestedAt as number,
  ids: (row) => distinctIds(row, TRANSACTION_IDS),
  counted: countedAs('COMPLETED'),
  crashPoint: 'archive.cash-out-written',
};

/** An account's ledger entries older than `before` (every one: immutable once posted). */
export function ledgerSource(accountNumber: string): ArchiveSource {
  return {
    ...entryArchive(accountNumber),
    kind: `ledger:${accountNumber}`,
    timeOf: (row) => row.createdAt as number,
    // A devolution's entry id is looked up to book it once (bank-returns.ts): it stays findable.
    ids: (row) => (row.type === 'PIX_REFUND_OUT' ? [row.id as string] : []),
    crashPoint: 'archive.ledger-written',
  };
}

/** Every source of this object, in the order a step tries them. */
export function archiveSources(ledger: LedgerContext): ArchiveSource[] {
  return [cashInSource, cashOutSource, ...allAccounts(ledger.db).map((a) => ledgerSource(a.number))];
}
