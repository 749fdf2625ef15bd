/**
 * What the Cash-In and Cash-Out views (docs/contract.md, Cash-In lifecycle and Cash-Out lifecycle) share: the
 * identity they open with, and which end-to-end ids they show.
 */
import { amountFromCents } from './money';

interface Identity<S extends string> {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  status: S;
  amount: number;
  endToEndId: string | null;
  refundEndToEndId: string | null;
}

/** The ids, status and amount (in reais) every view opens with. */
export function viewHead<S extends string>(r: Identity<S>) {
  return {
    transactionId: r.transactionId,
    internalCode: r.internalCode,
    externalReference: r.externalReference,
    status: r.status,
    amount: amountFromCents(r.amount),
  };
}

/**
 * A refunded transaction shows its refund's end-to-end id, keeping the original's as
 * `originalEndToEndId`; otherwise the original's, once `shown` (money reached the network).
 */
export function endToEndIds(
  r: Identity<string>,
  shown: boolean,
): { endToEndId?: string; originalEndToEndId?: string } {
  if (r.status === 'REFUNDED' && r.refundEndToEndId)
    return r.endToEndId
      ? { endToEndId: r.refundEndToEndId, originalEndToEndId: r.endToEndId }
      : { endToEndId: r.refundEndToEndId };
  return shown && r.endToEndId ? { endToEndId: r.endToEndId } : {};
}
