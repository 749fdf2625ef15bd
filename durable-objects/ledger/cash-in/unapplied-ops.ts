/**
 * Unapplied receipts of this client (docs/contract.md, Unapplied receipts): a Pix a partner reports
 * under one of this client's txids that no Cash-In can take. It is booked in the transaction that
 * decides so (a credit to the client's suspense account at that partner, the receipt, and the task
 * that returns it), then returned in full through the partner's devolution under an id derived from
 * the payment (src/domain/unapplied.ts), so a replay, a retry or a crash never returns it twice.
 * The D1 copy (src/db/unapplied.ts) is what the operator lists; it follows each change.
 */
import { mirrorUnapplied } from '../../../src/db/unapplied';
import { MED_WINDOW_MS } from '../../../src/domain/med-recheck';
import {
  nextFailedReadAt,
  receiptIdOf,
  returnIdOf,
  type UnappliedReason,
  type UnappliedReceipt,
} from '../../../src/domain/unapplied';
import { errorFields, log } from '../../../src/infra/log';
import type { ReceivedPix } from '../../../src/partners/bcb-api-pix/adapter';
import { bcbPartner } from '../../../src/partners/port-registry';
import { type ReturnStep, readFailedReturn, stepReturn } from '../../../src/partners/unapplied-return';
import type { LedgerContext } from '../ledger-context';
import {
  failedReceiptsSince,
  findReceipt as findStoredReceipt,
  insertReceipt,
  type ReceiptRow,
  recordReturnStep,
} from './unapplied-store';

/** How soon a devolution in flight is read again, and how long a step waits for a partner that is down. */
const RETURN_POLL_MS = 2_000;
const RETURN_RETRY_MS = 30_000;

type Row = ReceiptRow;

function receiptOf(ledger: LedgerContext, row: Row): UnappliedReceipt {
  const { bookedAt: _b, ...rest } = row;
  return { ...rest, clientId: ledger.profile.clientId };
}

export function findReceipt(ledger: LedgerContext, endToEndId: string): Row | undefined {
  return findStoredReceipt(ledger.db, endToEndId);
}

/** The receipt a Pix would become: its ids are digests, computed before the booking transaction. */
export async function receiptFor(
  ispb: string,
  pix: ReceivedPix,
  reason: UnappliedReason,
  clientId: string | null,
  now: number,
): Promise<UnappliedReceipt> {
  const receivedAt = Number.isFinite(pix.paidAt) ? pix.paidAt : now;
  return {
    id: await receiptIdOf(pix.endToEndId),
    ispb,
    endToEndId: pix.endToEndId,
    txid: pix.txid ?? null,
    clientId,
    amount: pix.amountCents,
    receivedAt,
    reason,
    returnId: await returnIdOf(ispb, pix.endToEndId, receivedAt),
    stage: 'REQUESTING',
    returnEndToEndId: null,
    returnedAt: null,
    failure: null,
  };
}

/**
 * Books the receipt inside the caller's transaction: the receipt, its suspense credit and the task
 * that returns it. False (nothing written) when this Pix is booked already.
 */
export function bookReceipt(ledger: LedgerContext, receipt: UnappliedReceipt, now: number): boolean {
  const { clientId: _c, ...row } = receipt;
  if (!insertReceipt(ledger.db, row, now)) return false;
  ledger.scheduler.schedule('return-unapplied', receipt.endToEndId, now);
  log('warn', 'an unapplied receipt was booked for return', {
    endToEndId: receipt.endToEndId,
    ispb: receipt.ispb,
    reason: receipt.reason,
    amount: receipt.amount,
  });
  return true;
}

/** The operator's D1 copy of a receipt just booked: best effort, the return task copies it anyway. */
export async function listReceipt(ledger: LedgerContext, receipt: UnappliedReceipt): Promise<void> {
  try {
    await mirrorUnapplied(ledger.env, receipt, Date.now());
  } catch (error) {
    log('warn', 'an unapplied receipt could not be listed yet', {
      endToEndId: receipt.endToEndId,
      ...errorFields(error),
    });
  }
}

/**
 * A partner's report (re-read from it) of a receipt held already. When it shows the receipt's
 * devolution settled, the return is read and recorded now, whatever stage it stands in here (a FAILED
 * one too: the network settled what the PSP first reported NAO_REALIZADO), as the refund path reads
 * its own devolution on a callback; one in flight is read sooner. 'returned' when this booked it.
 */
export async function checkReturn(
  ledger: LedgerContext,
  row: Row,
  pix: ReceivedPix,
): Promise<'returned' | 'already-recorded'> {
  const named = pix.devolutions.find((d) => d.id === row.returnId);
  if (!named || row.stage === 'RETURNED') return 'already-recorded';
  if (named.status !== 'DEVOLVIDO') {
    if (row.stage === 'SENT') ledger.scheduler.schedule('return-unapplied', row.endToEndId, Date.now());
    return 'already-recorded';
  }
  const again = await runReturn(ledger, row.endToEndId);
  if (again !== undefined) ledger.scheduler.schedule('return-unapplied', row.endToEndId, again);
  return findReceipt(ledger, row.endToEndId)?.stage === 'RETURNED' ? 'returned' : 'already-recorded';
}

/**
 * The return task: the D1 copy first (the operator sees the receipt even while the partner is down),
 * then one step at the partner, recorded if the receipt still stands as read. When to run again.
 */
export async function runReturn(ledger: LedgerContext, endToEndId: string): Promise<number | undefined> {
  const row = findReceipt(ledger, endToEndId);
  if (!row) return undefined;
  await mirrorUnapplied(ledger.env, receiptOf(ledger, row), Date.now());
  if (row.stage === 'RETURNED') return undefined;
  const failed = row.stage === 'FAILED';
  if (failed && nextFailedReadAt(row.receivedAt, Date.now()) === undefined) return undefined;
  if (!failed) await ledger.crashes.reach('unapplied.booked');
  const partner = bcbPartner(ledger.env, row.ispb);
  if (!partner) {
    log('error', 'an unapplied receipt names a partner no longer declared', { endToEndId, ispb: row.ispb });
    return Date.now() + RETURN_RETRY_MS;
  }
  let step: ReturnStep;
  try {
    step = failed ? await readFailedReturn(partner, row) : await stepReturn(partner, row);
  } catch (error) {
    log('warn', 'an unapplied receipt return step failed', { endToEndId, ...errorFields(error) });
    return Date.now() + RETURN_RETRY_MS;
  }
  await ledger.crashes.reach('unapplied.step-read');
  const now = Date.now();
  // A FAILED return the network has not settled: read again later, while a bank can still move it.
  if (failed && step.stage === 'WAIT') return nextFailedReadAt(row.receivedAt, now);
  if (step.stage === 'WAIT') return now + RETURN_RETRY_MS;
  if (step.stage === 'SENT' && row.stage === 'SENT') return now + RETURN_POLL_MS;
  const changed = ledger.storage.transactionSync(() => recordStep(ledger, row, step, now));
  if (changed) {
    const current = findReceipt(ledger, endToEndId);
    if (current) await mirrorUnapplied(ledger.env, receiptOf(ledger, current), now);
  }
  if (step.stage === 'SENT') return now + RETURN_POLL_MS;
  return step.stage === 'FAILED' ? nextFailedReadAt(row.receivedAt, now) : undefined;
}

/** FAILED returns given a read per call of scheduleUnreadFailedReturns. */
export const FAILED_READS_PER_PASS = 100;

/**
 * FAILED returns inside the MED window whose read is not scheduled (recorded before a FAILED return
 * was read again, when its task ended on FAILED): each gets its read now, at most
 * FAILED_READS_PER_PASS a call. Inside the caller's transaction; how many it scheduled.
 */
export function scheduleUnreadFailedReturns(ledger: LedgerContext, now: number): number {
  let scheduled = 0;
  for (const endToEndId of failedReceiptsSince(ledger.db, now - MED_WINDOW_MS)) {
    if (scheduled === FAILED_READS_PER_PASS) break;
    if (ledger.scheduler.exists('return-unapplied', endToEndId)) continue;
    ledger.scheduler.schedule('return-unapplied', endToEndId, now);
    scheduled += 1;
  }
  return scheduled;
}

function recordStep(
  ledger: LedgerContext,
  read: Row,
  step: Exclude<ReturnStep, { stage: 'WAIT' }>,
  now: number,
): boolean {
  const current = findReceipt(ledger, read.endToEndId);
  if (current?.stage !== read.stage) return false; // another run recorded it meanwhile
  recordReturnStep(ledger.db, read, step, now);
  if (step.stage === 'FAILED')
    log('error', 'an unapplied receipt could not be returned: read again until the MED window ends', {
      endToEndId: read.endToEndId,
      ispb: read.ispb,
      failure: step.failure,
    });
  if (read.stage === 'FAILED')
    log('warn', 'a FAILED unapplied return was settled by the network after all: returned', {
      endToEndId: read.endToEndId,
      ispb: read.ispb,
    });
  return true;
}
