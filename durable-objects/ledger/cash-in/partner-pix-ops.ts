/**
 * A received Pix as a real partner reports it (re-read from the partner by the caller, never taken
 * from a callback body): it pays the Cash-In its txid names, and each of its devolutions either is
 * our refund (checked at the partner now) or a devolution the bank made (recorded, never refused).
 * A Pix no Cash-In can take is held for its payer and returned (unapplied-ops.ts).
 * Everything is idempotent by end-to-end id and devolution id: the same report twice moves nothing.
 */

import type { PayerRules } from '../../../src/domain/payer-rules';
import type { UnappliedReason } from '../../../src/domain/unapplied';
import { errorFields, log } from '../../../src/infra/log';
import type { ReceivedDevolution, ReceivedPix } from '../../../src/partners/bcb-api-pix/adapter';
import { partnerPort } from '../../../src/partners/port-registry';
import type { LedgerContext } from '../ledger-context';
import { bankReturn, bookLateDevolution, devolutionBooked } from './bank-returns';
import { settleCashIn } from './cash-in-settle-ops';
import { findCashIn } from './cash-in-store';
import { pollRefund } from './refund-ops';
import { bookReceipt, checkReturn, findReceipt, listReceipt, receiptFor } from './unapplied-ops';

export type { ReceivedPix };

export type PixOutcome =
  | 'paid'
  | 'already-paid'
  | 'unmatched'
  | 'amount-mismatch'
  | 'not-payable'
  | 'duplicate'
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
  ledger: LedgerContext,
  transactionId: string,
  devolution: ReceivedDevolution,
): Promise<PixOutcome | undefined> {
  const row = findCashIn(ledger.db, transactionId);
  if (!row) return undefined;
  if (devolution.id === row.refundEndToEndId && row.refundState === 'PROCESSING') {
    try {
      await pollRefund(ledger, transactionId); // re-reads the devolution at the partner
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
    // A partial return leaves the Cash-In PAID: reported again, it is found booked.
    if (await devolutionBooked(ledger, row, devolution.id)) return 'already-recorded';
    const reason = RETURN_REASON[devolution.nature] ?? 'CUSTOMER_REQUEST';
    const result = await bankReturn(ledger, transactionId, reason, reported);
    if (result.ok) return 'returned';
  }
  const current = findCashIn(ledger.db, transactionId);
  if (current?.status !== 'REFUNDED') return undefined;
  return (await bookLateDevolution(ledger, current, reported)) ? 'devolution-recorded' : 'already-recorded';
}

/**
 * Books a Pix no Cash-In can take as an unapplied receipt of this client (unapplied-ops.ts), in one
 * transaction; reported again, it is found and nothing moves.
 */
async function unapplied(
  ledger: LedgerContext,
  ispb: string,
  pix: ReceivedPix,
  reason: UnappliedReason,
  fields: Record<string, unknown>,
): Promise<PixOutcome[]> {
  const now = Date.now();
  const receipt = await receiptFor(ispb, pix, reason, ledger.profile.clientId, now);
  const booked = ledger.storage.transactionSync(() => bookReceipt(ledger, receipt, now));
  // Listed for the operator at once; if D1 cannot take it now, the return task lists it first.
  if (booked) await listReceipt(ledger, receipt);
  log('error', 'a partner reports a payment no Cash-In can take: held for return to the payer', {
    ...fields,
    reason,
    booked,
  });
  return [booked ? OUTCOME_OF[reason] : 'already-recorded'];
}

const OUTCOME_OF: Readonly<Record<UnappliedReason, PixOutcome>> = {
  UNKNOWN_CHARGE: 'unmatched',
  AMOUNT_MISMATCH: 'amount-mismatch',
  NOT_PAYABLE: 'not-payable',
  DUPLICATE: 'duplicate',
};

export async function applyPartnerPix(
  ledger: LedgerContext,
  ispb: string,
  pix: ReceivedPix,
  rules: PayerRules,
): Promise<PixOutcome[]> {
  const fields = { transactionId: pix.txid, endToEndId: pix.endToEndId, ispb };
  // Held already: the same money, reported again (a replay, the sweep, a devolution's callback).
  const held = findReceipt(ledger, pix.endToEndId);
  if (held) return [await checkReturn(ledger, held, pix)];
  const row = pix.txid === undefined ? undefined : findCashIn(ledger.db, pix.txid);
  // A partner speaks only for the charges registered with it.
  if (!row || row.partnerIspb !== ispb || row.transactionId !== pix.txid)
    return unapplied(ledger, ispb, pix, 'UNKNOWN_CHARGE', fields);
  const outcomes: PixOutcome[] = [];
  if (row.status === 'AWAITING_PAYMENT') {
    if (pix.amountCents !== row.amount)
      return unapplied(ledger, ispb, pix, 'AMOUNT_MISMATCH', { ...fields, expected: row.amount });
    const settled = await settleCashIn(ledger, {
      id: row.transactionId,
      source: 'network',
      endToEndId: pix.endToEndId,
      ...(Number.isFinite(pix.paidAt) && { initiatedAt: pix.paidAt }),
      // Where the partner reports the paying account holder (Efí's payer report), it is who paid.
      ...(pix.payer && { payer: pix.payer }),
      rules,
    });
    if (!settled.ok) return unapplied(ledger, ispb, pix, 'NOT_PAYABLE', { ...fields, status: row.status });
    outcomes.push('paid');
  } else if (row.endToEndId === pix.endToEndId) {
    outcomes.push('already-paid');
  } else {
    // Money for a charge no longer payable (cancelled or expired here, still open at the partner),
    // or a second payment of a paid one: held for the payer and returned, the Cash-In untouched.
    const reason = row.paidAt === null ? 'NOT_PAYABLE' : 'DUPLICATE';
    return unapplied(ledger, ispb, pix, reason, { ...fields, status: row.status });
  }
  for (const devolution of pix.devolutions) {
    const outcome = await applyDevolution(ledger, row.transactionId, devolution);
    if (outcome) outcomes.push(outcome);
  }
  return outcomes;
}

/** How long before asking a partner again to take a cancelled charge down. */
const REMOVE_CHARGE_RETRY_MS = 30_000;

/**
 * Takes a cancelled Cash-In's charge down at its partner, after the partner could not answer at
 * cancellation; when to try again (undefined: done). A refusal is logged for the operator: a
 * payment made meanwhile, when reported, is held and returned as an unapplied receipt.
 */
export async function removeCharge(
  ledger: LedgerContext,
  transactionId: string,
): Promise<number | undefined> {
  const row = findCashIn(ledger.db, transactionId);
  if (row?.status !== 'CANCELLED') return undefined;
  const port = partnerPort(ledger.env, row.partnerIspb);
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
