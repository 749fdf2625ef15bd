/**
 * The settlement-partner port: what a real bank adapter implements. Every money-moving call
 * carries a partner-side idempotency id, so a retry after a crash can never act twice at the bank:
 * the partner answers the first request's outcome again.
 */
export interface ChargeRegistration {
  /** Idempotency id at the partner: the Cash-In TxId. */
  txid: string;
  amountCents: number;
  expiresAt: number;
}

export type PartnerOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; failureCode: string; retryable: boolean };

export interface DevolutionRequest {
  /** The devolution's own end-to-end id (D…), which is also its idempotency id. */
  endToEndId: string;
  originalEndToEndId: string;
  amountCents: number;
}

export type TransferStatus =
  | { state: 'PENDING' }
  | { state: 'SETTLED'; endToEndId: string; settledAt: number }
  | { state: 'FAILED'; failureCode: string }
  | { state: 'UNKNOWN' };

export interface SettlementPartnerPort {
  readonly ispb: string;
  /** Registers a dynamic charge so the PIX network routes its payment to the partner account. */
  registerCharge(charge: ChargeRegistration): Promise<PartnerOutcome<{ registeredAt: number }>>;
  /** Sends a devolution (refund) of a received payment. */
  sendDevolution(request: DevolutionRequest): Promise<PartnerOutcome<{ acceptedAt: number }>>;
  /** Where a transfer sent with this idempotency id stands at the partner. */
  transferStatus(idempotencyId: string): Promise<TransferStatus>;
}
