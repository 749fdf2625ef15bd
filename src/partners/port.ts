/**
 * The settlement-partner port: what a real bank adapter implements. Every call carries a
 * partner-side idempotency id so a retry after a crash can never act twice at the bank.
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

export interface SettlementPartnerPort {
  readonly ispb: string;
  /** Registers a dynamic charge so the PIX network routes its payment to the partner account. */
  registerCharge(charge: ChargeRegistration): Promise<PartnerOutcome<{ registeredAt: number }>>;
}
