/**
 * The state-transition rules of Cash-In, refund and Cash-Out (docs/contract.md, Cash-In lifecycle and
 * Cash-Out lifecycle) as pure functions: each answers the typed refusal (a code of the error catalog and its
 * detail) or nothing. The ClientLedger applies them inside its transactions; test/domain covers them alone.
 */
import type { ProblemShape } from './error-codes';

type Refusal = ProblemShape & { detail: string };

/** States a paid Cash-In can no longer be refunded from, and why. */
const REFUND_REFUSAL: Readonly<Record<string, string>> = {
  AWAITING_PAYMENT: 'The Cash-In is not paid yet',
  EXPIRED: 'The Cash-In expired without payment',
  CANCELLED: 'The Cash-In was cancelled',
  REFUNDED: 'The Cash-In was already refunded',
};

/** Why this Cash-In cannot be refunded now; money checks (the balance) come after. */
export function refundRefusal(c: {
  status: string;
  refundState: string | null;
  endToEndId: string | null;
  disputeStatus?: string | null;
}): Refusal | undefined {
  const refusal = REFUND_REFUSAL[c.status];
  if (refusal) return { code: 'REFUND_NOT_ALLOWED', detail: refusal };
  // The payer's bank holds the money while it decides: a refund would pay it back twice.
  if (c.disputeStatus === 'OPEN' || c.disputeStatus === 'DEFENDED')
    return {
      code: 'REFUND_NOT_ALLOWED',
      detail: 'This Cash-In is under dispute (MED); it cannot be refunded now',
    };
  if (c.refundState === 'PROCESSING')
    return { code: 'REFUND_NOT_ALLOWED', detail: 'A refund of this Cash-In is already in progress' };
  if (c.endToEndId === null)
    return { code: 'MISSING_E2E', detail: 'The payment endToEndId is not available yet; retry later' };
  return undefined;
}

/** Only an unpaid Cash-In ends by cancellation or expiry. */
export function unpaidOnly(status: string, verb: 'cancelled' | 'expire'): Refusal | undefined {
  if (status === 'AWAITING_PAYMENT') return undefined;
  return {
    code: 'RULE_VIOLATION',
    detail:
      verb === 'cancelled'
        ? `Only AWAITING_PAYMENT can be cancelled; this Cash-In is ${status}`
        : `Only AWAITING_PAYMENT can expire; this Cash-In is ${status}`,
  };
}

/** A Cash-Out at or above the client's approval threshold waits for an operator (PENDING). */
export function needsApproval(amountCents: number, thresholdCents: number | null | undefined): boolean {
  return thresholdCents != null && amountCents >= thresholdCents;
}
