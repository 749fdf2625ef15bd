/**
 * Batch Cash-Out inside the client's object (docs/contract.md, Batch Cash-Out; OpenAPI
 * createCashOutBatch): every item is checked before anything is written, then the whole batch is
 * accepted in one storage transaction, written as any Cash-Out is (cash-out-accept.ts), with the batch
 * row and the idempotent answer. From there each item is an ordinary Cash-Out: the
 * executor (cash-out-exec.ts) takes due Cash-Outs in seq order, so limits, routing and approval
 * apply in item order exactly as if the items had been sent one by one, and it pays them in
 * bounded rounds of calls per partner.
 */

import {
  type CashOutBatchAcceptedBody,
  type CashOutBatchBody,
  MAX_BATCH_ITEMS,
} from '../../../src/api/cash-out-batch/schemas';
import { newUuid } from '../../../src/domain/ids';
import { amountFromCents } from '../../../src/domain/money';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { formatBrt } from '../../../src/domain/time';
import { referencesArchived } from '../archive/archive-reads';
import { sqlOf } from '../db';
import { takeCodes } from '../internal-codes';
import type { Remember } from '../ledger/idempotency';
import type { LedgerContext } from '../ledger-context';
import { acceptedCashOut, type CreateCashOutInput, newCashOutRow, writeCashOuts } from './cash-out-accept';
import { type BatchRow, batchById, insertBatch, latestBatches } from './cash-out-batch-store';
import { executorWoken } from './cash-out-exec';
import { externalReferencesTaken, statusCountsBetween } from './cash-out-store';

/** The RPC answers are the API's bodies, typed by its schemas. */
export type CashOutBatchAccepted = CashOutBatchAcceptedBody;
export type CashOutBatchView = CashOutBatchBody;

/**
 * The indexes whose externalReference is repeated inside the batch or already used by a Cash-Out
 * (live or archived), each with why: empty when the batch may be accepted.
 */
function referenceConflicts(
  ledger: LedgerContext,
  items: readonly CreateCashOutInput[],
  archived: ReadonlySet<string>,
): Record<string, string[]> {
  const sql = sqlOf(ledger.db);
  const positions = new Map<string, number[]>();
  items.forEach((item, i) => {
    const list = positions.get(item.externalReference);
    if (list) list.push(i);
    else positions.set(item.externalReference, [i]);
  });
  const taken = externalReferencesTaken(sql, [...positions.keys()]);
  const errors: Record<string, string[]> = {};
  items.forEach((item, i) => {
    const ref = item.externalReference;
    const same = positions.get(ref) as number[];
    const field = `items[${i}].externalReference`;
    if (taken.has(ref) || archived.has(ref)) {
      errors[field] = [`externalReference '${ref}' was already used for a Cash-Out`];
    } else if (same.length > 1) {
      const others = same.filter((j) => j !== i).map((j) => `items[${j}]`);
      errors[field] = [`externalReference '${ref}' is repeated in this batch (also at ${others.join(', ')})`];
    }
  });
  return errors;
}

const conflictsFailure = (conflicts: Record<string, string[]>) => {
  const offending = Object.keys(conflicts);
  return failure({
    code: 'DUPLICATED_EXTERNAL_REFERENCE',
    detail:
      `${offending.length} item(s) carry an externalReference repeated in the batch or ` +
      `already used for a Cash-Out: ${offending.map((f) => f.slice(0, f.indexOf('.'))).join(', ')}; ` +
      `nothing was created`,
    errors: conflicts,
  });
};

export async function acceptCashOutBatch(
  ledger: LedgerContext,
  items: readonly CreateCashOutInput[],
  remember: Remember,
): Promise<OperationResult<CashOutBatchAccepted>> {
  if (items.length === 0 || items.length > MAX_BATCH_ITEMS)
    throw new Error(`a batch has 1 to ${MAX_BATCH_ITEMS} items (checked by the API)`);
  const none = new Set<string>();
  // Hot first, then the archive registry, then hot again with the write: a row hot at the first
  // check and archived since was registered before it left (archive-index.ts). Every reference is
  // asked of the registry, no filter in the object: one call per shard the batch touches, all at
  // once (archive-reads.ts referencesArchived).
  let conflicts = referenceConflicts(ledger, items, none);
  if (Object.keys(conflicts).length > 0) return conflictsFailure(conflicts);
  const archived = await referencesArchived(ledger, 'cash-out', [
    ...new Set(items.map((item) => item.externalReference)),
  ]);
  // Hot again, with the write: another request may have taken a reference during the call.
  conflicts = referenceConflicts(ledger, items, archived);
  if (Object.keys(conflicts).length > 0) return conflictsFailure(conflicts);
  const now = Date.now();
  const batchId = newUuid();
  // Unique by construction, taken with the rows (internal-codes.ts).
  const accepted = ledger.storage.transactionSync(() => {
    const codes = takeCodes(sqlOf(ledger.db), items.length);
    const rows = items.map((input, index) => newCashOutRow(input, codes[index] as string, now));
    const amountCents = rows.reduce((sum, row) => sum + row.amount, 0);
    const body: CashOutBatchAccepted = {
      batchId,
      createdAt: formatBrt(now),
      count: items.length,
      amount: amountFromCents(amountCents),
      items: rows.map((row, index) => ({ index, ...acceptedCashOut(row) })),
    };
    const [firstSeq, lastSeq] = writeCashOuts(ledger, rows, now);
    insertBatch(sqlOf(ledger.db), {
      batch_id: batchId,
      created_at: now,
      count: items.length,
      amount: amountCents,
      first_seq: firstSeq,
      last_seq: lastSeq,
    });
    remember(202, body);
    return body;
  });
  executorWoken(ledger.db, now);
  await ledger.crashes.reach('cash-out-batch.accepted');
  return success(202, accepted);
}

/** Batches the console lists for a client, newest first. */
export const RECENT_BATCHES = 10;

/**
 * GET /cash-out/batch/{batchId} (`{ batchId }`: that batch, or none) and the console's latest
 * batches (`{ recent: true }`): each with its items' counts by status, read over its seq range.
 */
export function cashOutBatchViews(
  ledger: LedgerContext,
  query: { batchId: string } | { recent: true },
): CashOutBatchView[] {
  const sql = sqlOf(ledger.db);
  const rows = 'batchId' in query ? batchById(sql, query.batchId) : latestBatches(sql, RECENT_BATCHES);
  return rows.map((batch) => batchView(sql, batch));
}

function batchView(sql: SqlStorage, batch: BatchRow): CashOutBatchView {
  const batchId = batch.batch_id;
  const byStatus = { PROCESSING: 0, PENDING: 0, COMPLETED: 0, CANCELLED: 0, REFUNDED: 0 };
  for (const row of statusCountsBetween(sql, batch.first_seq, batch.last_seq))
    byStatus[row.status as keyof typeof byStatus] = row.n;
  return {
    batchId,
    createdAt: formatBrt(batch.created_at),
    count: batch.count,
    amount: amountFromCents(batch.amount),
    byStatus,
  };
}
