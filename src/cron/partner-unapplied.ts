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
} from '../db/unapplied';
import { errorFields, log } from '../infra/log';
import type { ReceivedPix } from '../partners/bcb-api-pix/adapter';
import { bcbPartner } from '../partners/port-registry';
import { stepReturn } from '../partners/unapplied-return';

/** Returns taken a step further per cron run (each is one or two partner calls). */
const RETURNS_PER_RUN = 50;
const RETURN_POLL_MS = 2_000;
const RETURN_RETRY_MS = 30_000;

/** Books the Pix in the partner's suspense account, once; its return starts at the next cron run. */
export async function holdForPartner(env: Env, ispb: string, pix: ReceivedPix): Promise<PixOutcome[]> {
  if (await findUnapplied(env, pix.endToEndId)) return ['already-recorded'];
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

/** Cron: the partner-held returns that are due, one step each. */
export async function returnPartnerHeld(env: Env, now = Date.now()): Promise<void> {
  for (const receipt of await duePartnerReceipts(env, now, RETURNS_PER_RUN)) {
    try {
      const partner = bcbPartner(env, receipt.ispb);
      if (!partner) {
        await advancePartnerReceipt(env, receipt, {}, now + RETURN_RETRY_MS, now);
        continue;
      }
      const step = await stepReturn(partner, receipt);
      const at = Date.now();
      if (step.stage === 'WAIT') await advancePartnerReceipt(env, receipt, {}, at + RETURN_RETRY_MS, at);
      else if (step.stage === 'SENT')
        await advancePartnerReceipt(env, receipt, { stage: 'SENT' }, at + RETURN_POLL_MS, at);
      else if (step.stage === 'RETURNED')
        await advancePartnerReceipt(
          env,
          receipt,
          { stage: 'RETURNED', returnEndToEndId: step.returnEndToEndId, returnedAt: step.returnedAt },
          null,
          at,
        );
      else {
        await advancePartnerReceipt(env, receipt, { stage: 'FAILED', failure: step.failure }, null, at);
        log('error', 'an unapplied receipt could not be returned: the operator must act', {
          endToEndId: receipt.endToEndId,
          ispb: receipt.ispb,
          failure: step.failure,
        });
      }
    } catch (error) {
      log('error', 'an unapplied receipt return step failed', {
        endToEndId: receipt.endToEndId,
        ...errorFields(error),
      });
    }
  }
}
