/**
 * A received Pix as a real partner reports it (re-read from the partner by the caller, never taken
 * from a callback body): it pays the Cash-In its txid names, and each of its devolutions either is
 * our refund (checked at the partner now) or a devolution the bank made (recorded, never refused).
 * Everything is idempotent by end-to-end id and devolution id: the same report twice moves nothing.
 */

import { errorFields, log } from '../../src/infra/log';
import type { ReceivedDevolution, ReceivedPix } from '../../src/partners/bcb-api-pix/adapter';
import { partnerPort } from '../../src/partners/port-registry';
import { bankReturn, bookLateDevolution } from './bank-returns';
import { settleCashIn } from './cash-in-settle-ops';
import { findCashIn } from './cash-in-store';
import type { LedgerContext } from './context';
import { pollRefund } from './refund-ops';

export type { ReceivedPix };

export type PixOutcome =
  | 'paid'
  | 'already-paid'
  | 'unmatched'
  | 'amount-mismatch'
  | 'not-payable'
  | 'refund-checked'
  | 'returned'
  | 'devolution-recorded'
  | 'already-recorded';

/** The Cash-In reason a devolution's nature (API Pix `natureza`) gives a bank return. */
const RETURN_REASON: Readonly<Record<string, string>> = {
  MED_FRAUDE: 'FRAUD',
  MED_OPERACIONAL: 'OTHER',
  MED_PIX_AUTOMATICO: 'OTHER',
};

async function applyDevolution(
  ctx: LedgerContext,
  transactionId: string,
  devolution: ReceivedDevolution,
): Promise<PixOutcome | undefined> {
  const row = findCashIn(ctx.db, transactionId);
  if (!row) return undefined;
  if (devolution.id === row.refundEndToEndId && row.refundState === 'PROCESSING') {
    try {
      await pollRefund(ctx, transactionId); // re-reads the devolution at the partner
      return 'refund-checked';
    } catch (error) {
      // The partner did not answer now; the refund's own poll keeps asking.
      log('warn', 'refund check after a partner callback failed', { transactionId, ...errorFields(error) });
      return undefined;
    }
  }
  // Only a settled devolution moved money; ours in flight or failed is the refund poll's business.
  if (devolution.status !== 'DEVOLVIDO') return undefined;
  if (devolution.amountCents <= 0) {
    log('error', 'a partner reported a devolution without a valid amount', { transactionId });
    return undefined;
  }
  const reported = {
    id: devolution.id,
    endToEndId: devolution.endToEndId,
    amountCents: devolution.amountCents,
  };
  if (row.status === 'PAID') {
    const reason = RETURN_REASON[devolution.nature] ?? 'CUSTOMER_REQUEST';
    const result = await bankReturn(ctx, transactionId, reason, reported);
    if (result.ok) return 'returned';
  }
  const current = findCashIn(ctx.db, transactionId);
  if (current?.status !== 'REFUNDED') return undefined;
  return (await bookLateDevolution(ctx, current, reported)) ? 'devolution-recorded' : 'already-recorded';
}

export async function applyPartnerPix(
  ctx: LedgerContext,
  ispb: string,
  pix: ReceivedPix,
  blockedPayerDocuments: string[],
): Promise<PixOutcome[]> {
  const row = pix.txid === undefined ? undefined : findCashIn(ctx.db, pix.txid);
  // A partner speaks only for the charges registered with it.
  if (!row || row.partnerIspb !== ispb || row.transactionId !== pix.txid) return ['unmatched'];
  const outcomes: PixOutcome[] = [];
  const fields = { transactionId: row.transactionId, endToEndId: pix.endToEndId };
  if (row.status === 'AWAITING_PAYMENT') {
    if (pix.amountCents !== row.amount) {
      log('error', 'a partner reports a payment of another amount than the charge', {
        ...fields,
        expected: row.amount,
        reported: pix.amountCents,
      });
      return ['amount-mismatch'];
    }
    const settled = await settleCashIn(ctx, {
      id: row.transactionId,
      source: 'network',
      endToEndId: pix.endToEndId,
      ...(Number.isFinite(pix.paidAt) && { initiatedAt: pix.paidAt }),
      blockedPayerDocuments,
    });
    if (!settled.ok) log('error', 'a partner reports a payment the Cash-In cannot take', fields);
    outcomes.push(settled.ok ? 'paid' : 'not-payable');
  } else if (row.endToEndId === pix.endToEndId) {
    outcomes.push('already-paid');
  } else {
    // Money arrived for a charge no longer payable (cancelled here, still open at the partner) or
    // a second time: the operator must return it; nothing here can book it against this Cash-In.
    log('error', 'a partner reports a payment the Cash-In cannot take', { ...fields, status: row.status });
    return ['not-payable'];
  }
  for (const devolution of pix.devolutions) {
    const outcome = await applyDevolution(ctx, row.transactionId, devolution);
    if (outcome) outcomes.push(outcome);
  }
  return outcomes;
}

/** How long before asking a partner again to take a cancelled charge down. */
const REMOVE_CHARGE_RETRY_MS = 30_000;

/**
 * Takes a cancelled Cash-In's charge down at its partner, after the partner could not answer at
 * cancellation; when to try again (undefined: done). A refusal is logged for the operator: a
 * payment made meanwhile, when reported, is logged too and books nothing against a CANCELLED Cash-In.
 */
export async function removeCharge(ctx: LedgerContext, transactionId: string): Promise<number | undefined> {
  const row = findCashIn(ctx.db, transactionId);
  if (row?.status !== 'CANCELLED') return undefined;
  const port = partnerPort(ctx.env, row.partnerIspb);
  if (!port.removeCharge) return undefined;
  const removed = await port.removeCharge(row.transactionId);
  if (removed.ok) return undefined;
  if (removed.retryable) return Date.now() + REMOVE_CHARGE_RETRY_MS;
  log('error', 'the partner kept a cancelled Cash-In charge open', {
    transactionId,
    ispb: row.partnerIspb,
    failureCode: removed.failureCode,
  });
  return undefined;
}
