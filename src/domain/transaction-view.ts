/**
 * What the Cash-In and Cash-Out field tables (docs/contract.md, Cash-In lifecycle and Cash-Out
 * lifecycle) share: the ids they open with, and which end-to-end ids they show.
 */
import { type Condition, fieldsOf } from './view-fields';

interface Identity {
  transactionId: string;
  internalCode: string;
  externalReference: string;
  status: string;
  endToEndId: string | null;
  refundEndToEndId: string | null;
}

/** The ids every view opens with. */
export function headFields<R extends Identity>() {
  const f = fieldsOf<R>();
  return [
    f.always('transactionId', f.text('transactionId')),
    f.always('internalCode', f.text('internalCode')),
    f.always('externalReference', f.text('externalReference')),
  ] as const;
}

/**
 * A refunded transaction shows its refund's end-to-end id, keeping the original's as
 * `originalEndToEndId`; otherwise the original's, once `shown` (money reached the network).
 */
export function endToEndIdFields<R extends Identity>(shown: Condition<R>) {
  const f = fieldsOf<R>();
  const refunded = f.all(f.is('status', 'REFUNDED'), f.filled('refundEndToEndId'));
  return [
    f.firstOf(
      'endToEndId',
      { when: refunded, value: f.text('refundEndToEndId') },
      { when: f.all(shown, f.filled('endToEndId')), value: f.text('endToEndId') },
    ),
    f.when(f.all(refunded, f.filled('endToEndId')), 'originalEndToEndId', f.text('endToEndId')),
  ] as const;
}
