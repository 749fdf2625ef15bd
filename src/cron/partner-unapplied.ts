/**
 * Unapplied receipts no client can be named for (a Pix without a txid, or under a txid no client of
 * ours issued): held in the partner's suspense account, which is their D1 row (src/db/unapplied.ts),
 * and returned to the payer step by step from the cron, like a client's (ledger/cash-in/unapplied-ops.ts).
 */

import type { PixOutcome } from '../../durable-objects/ledger/cash-in/partner-pix-ops';
import { receiptFor } from '../../durable-objects/ledger/cash-in/unapplied-ops';
import {
  advancePartnerReceipt,
  bookPartnerReceipt,
  duePartnerReceipts,
  findUnapplied,
  scheduleUnreadFailedReturns,
} from '../db/unapplied';
import { nextFailedReadAt, type UnappliedReceipt } from '../domain/unapplied';
import { errorFields, log } from '../infra/log';
import type { BcbApiPixPartner, ReceivedPix } from '../partners/bcb-api-pix/adapter';
import { bcbPartner } from '../partners/port-registry';
import { type ReturnStep, readFailedReturn, stepReturn } from '../partners/unapplied-return';

/** Returns taken a step further per cron run (each is one or two partner calls). */
const RETURNS_PER_RUN = 50;
const RETURN_POLL_MS = 2_000;
const RETURN_RETRY_MS = 30_000;

/**
 * Books the Pix in the partner's suspense account, once; its return starts at the next cron run.
 * Reported again (re-read from the partner) with its devolution settled, the return is read and
 * recorded now, a FAILED one too (unapplied-ops.ts checkReturn does the same for a client's).
 */
export async function holdForPartner(env: Env, ispb: string, pix: ReceivedPix): Promise<PixOutcome[]> {
  const held = await findUnapplied(env, pix.endToEndId);
  if (held) {
    const settled = pix.devolutions.some((d) => d.id === held.returnId && d.status === 'DEVOLVIDO');
    const partner = bcbPartner(env, held.ispb);
    if (!settled || held.stage === 'RETURNED' || !partner) return ['already-recorded'];
    await stepPartnerReceipt(env, partner, held, Date.now());
    return [
      (await findUnapplied(env, pix.endToEndId))?.stage === 'RETURNED' ? 'returned' : 'already-recorded',
    ];
  }
  const now = Date.now();
  const receipt = await receiptFor(ispb, pix, 'UNKNOWN_CHARGE', null, now);
  const booked = await bookPartnerReceipt(env, receipt, now);
  log('error', 'a partner reports a payment under no charge of ours: held for return to the payer', {
    ispb,
    endToEndId: pix.endToEndId,
    txid: pix.txid,
    amount: pix.amountCents,
  });
  return [booked ? 'unmatched' : 'already-recorded'];
}

/**
 * Cron: the partner-held returns that are due, one step each (a FAILED one: one read), after giving
 * every FAILED one inside the MED window that has no read scheduled its read.
 */
export async function returnPartnerHeld(env: Env, now = Date.now()): Promise<void> {
  try {
    const scheduled = await scheduleUnreadFailedReturns(env, now);
    if (scheduled > 0)
      log('info', 'FAILED unapplied returns with no read scheduled: read again', { scheduled });
  } catch (error) {
    log('warn', 'FAILED unapplied returns could not be scheduled for a read yet', errorFields(error));
  }
  for (const receipt of await duePartnerReceipts(env, now, RETURNS_PER_RUN)) {
    try {
      const partner = bcbPartner(env, receipt.ispb);
      if (!partner) {
        await advancePartnerReceipt(env, receipt, {}, now + RETURN_RETRY_MS, now);
        continue;
      }
      await stepPartnerReceipt(env, partner, receipt, now);
    } catch (error) {
      log('error', 'an unapplied receipt return step failed', {
        endToEndId: receipt.endToEndId,
        ...errorFields(error),
      });
    }
  }
}

/** One step of a partner-held return (one read of a FAILED one), recorded from the stage it was read in. */
async function stepPartnerReceipt(
  env: Env,
  partner: BcbApiPixPartner,
  receipt: UnappliedReceipt,
  now: number,
): Promise<void> {
  const failed = receipt.stage === 'FAILED';
  if (failed && nextFailedReadAt(receipt.receivedAt, now) === undefined) {
    await advancePartnerReceipt(env, receipt, {}, null, now); // past the MED window: the operator's now
    return;
  }
  const step: ReturnStep = failed
    ? await readFailedReturn(partner, receipt)
    : await stepReturn(partner, receipt);
  // The run's clock, never behind the one it was started with.
  const at = Math.max(now, Date.now());
  if (step.stage === 'WAIT')
    await advancePartnerReceipt(
      env,
      receipt,
      {},
      failed ? (nextFailedReadAt(receipt.receivedAt, at) ?? null) : at + RETURN_RETRY_MS,
      at,
    );
  else if (step.stage === 'SENT')
    await advancePartnerReceipt(env, receipt, { stage: 'SENT' }, at + RETURN_POLL_MS, at);
  else if (step.stage === 'RETURNED') {
    await advancePartnerReceipt(
      env,
      receipt,
      {
        stage: 'RETURNED',
        returnEndToEndId: step.returnEndToEndId,
        returnedAt: step.returnedAt,
        failure: null,
      },
      null,
      at,
    );
    if (failed)
      log('warn', 'a FAILED unapplied return was settled by the network after all: returned', {
        endToEndId: receipt.endToEndId,
        ispb: receipt.ispb,
      });
  } else {
    // Never asked again by itself, but read again while a bank can still settle it.
    await advancePartnerReceipt(
      env,
      receipt,
      { stage: 'FAILED', failure: step.failure },
      nextFailedReadAt(receipt.receivedAt, at) ?? null,
      at,
    );
    log('error', 'an unapplied receipt could not be returned: read again until the MED window ends', {
      endToEndId: receipt.endToEndId,
      ispb: receipt.ispb,
      failure: step.failure,
    });
  }
}
