/**
 * Unapplied receipts of this client (docs/contract.md, Unapplied receipts): a Pix a partner reports
 * under one of this client's txids that no Cash-In can take. It is booked in the transaction that
 * decides so (a credit to the client's suspense account at that partner, the receipt, and the task
 * that returns it), then returned in full through the partner's devolution under an id derived from
 * the payment (src/domain/unapplied.ts), so a replay, a retry or a crash never returns it twice.
 * The D1 copy (src/db/unapplied.ts) is what the operator lists; it follows each change.
 */
import { mirrorUnapplied } from '../../../src/db/unapplied';
import {
  receiptIdOf,
  returnIdOf,
  type UnappliedReason,
  type UnappliedReceipt,
} from '../../../src/domain/unapplied';
import { errorFields, log } from '../../../src/infra/log';
import type { ReceivedPix } from '../../../src/partners/bcb-api-pix/adapter';
import { bcbPartner } from '../../../src/partners/port-registry';
import { stepReturn } from '../../../src/partners/unapplied-return';
import type { LedgerContext } from '../context';
import {
  findReceipt as findStoredReceipt,
  insertReceipt,
  type ReceiptRow,
  recordReturnStep,
} from './unapplied-store';

/** How soon a devolution in flight is read again, and how long a step waits for a partner that is down. */
const RETURN_POLL_MS = 2_000;
const RETURN_RETRY_MS = 30_000;

type Row = ReceiptRow;

function receiptOf(ctx: LedgerContext, row: Row): UnappliedReceipt {
  const { bookedAt: _b, ...rest } = row;
  return { ...rest, clientId: ctx.profile.clientId };
}

export function findReceipt(ctx: LedgerContext, endToEndId: string): Row | undefined {
  return findStoredReceipt(ctx.db, endToEndId);
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
export function bookReceipt(ctx: LedgerContext, receipt: UnappliedReceipt, now: number): boolean {
  const { clientId: _c, ...row } = receipt;
  if (!insertReceipt(ctx.db, row, now)) return false;
  ctx.scheduler.schedule('return-unapplied', receipt.endToEndId, now);
  log('warn', 'an unapplied receipt was booked for return', {
    endToEndId: receipt.endToEndId,
    ispb: receipt.ispb,
    reason: receipt.reason,
    amount: receipt.amount,
  });
  return true;
}

/** The operator's D1 copy of a receipt just booked: best effort, the return task copies it anyway. */
export async function listReceipt(ctx: LedgerContext, receipt: UnappliedReceipt): Promise<void> {
  try {
    await mirrorUnapplied(ctx.env, receipt, Date.now());
  } catch (error) {
    log('warn', 'an unapplied receipt could not be listed yet', {
      endToEndId: receipt.endToEndId,
      ...errorFields(error),
    });
  }
}

/** A partner callback names a receipt's devolution: read it now rather than at the next poll. */
export function hurryReturn(ctx: LedgerContext, row: Row, pix: ReceivedPix): void {
  if (row.stage === 'SENT' && pix.devolutions.some((d) => d.id === row.returnId))
    ctx.scheduler.schedule('return-unapplied', row.endToEndId, Date.now());
}

/**
 * The return task: the D1 copy first (the operator sees the receipt even while the partner is down),
 * then one step at the partner, recorded if the receipt still stands as read. When to run again.
 */
export async function runReturn(ctx: LedgerContext, endToEndId: string): Promise<number | undefined> {
  const row = findReceipt(ctx, endToEndId);
  if (!row) return undefined;
  await mirrorUnapplied(ctx.env, receiptOf(ctx, row), Date.now());
  if (row.stage === 'RETURNED' || row.stage === 'FAILED') return undefined;
  await ctx.crashes.reach('unapplied.booked');
  const partner = bcbPartner(ctx.env, row.ispb);
  if (!partner) {
    log('error', 'an unapplied receipt names a partner no longer declared', { endToEndId, ispb: row.ispb });
    return Date.now() + RETURN_RETRY_MS;
  }
  let step: Awaited<ReturnType<typeof stepReturn>>;
  try {
    step = await stepReturn(partner, row);
  } catch (error) {
    log('warn', 'an unapplied receipt return step failed', { endToEndId, ...errorFields(error) });
    return Date.now() + RETURN_RETRY_MS;
  }
  await ctx.crashes.reach('unapplied.step-read');
  const now = Date.now();
  if (step.stage === 'WAIT') return now + RETURN_RETRY_MS;
  if (step.stage === 'SENT' && row.stage === 'SENT') return now + RETURN_POLL_MS;
  const changed = ctx.storage.transactionSync(() => recordStep(ctx, row, step, now));
  if (changed) {
    const current = findReceipt(ctx, endToEndId);
    if (current) await mirrorUnapplied(ctx.env, receiptOf(ctx, current), now);
  }
  return step.stage === 'SENT' ? now + RETURN_POLL_MS : undefined;
}

function recordStep(
  ctx: LedgerContext,
  read: Row,
  step: Exclude<Awaited<ReturnType<typeof stepReturn>>, { stage: 'WAIT' }>,
  now: number,
): boolean {
  const current = findReceipt(ctx, read.endToEndId);
  if (current?.stage !== read.stage) return false; // another run recorded it meanwhile
  recordReturnStep(ctx.db, read, step, now);
  if (step.stage === 'FAILED')
    log('error', 'an unapplied receipt could not be returned: the operator must act', {
      endToEndId: read.endToEndId,
      ispb: read.ispb,
      failure: step.failure,
    });
  return true;
}
