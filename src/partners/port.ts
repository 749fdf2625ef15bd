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
  /** Whom the charge is addressed to (API Pix `devedor`): the payer's bank shows it to the payer. */
  payer?: { name: string; document: string };
  /**
   * A Pix Automático cycle (API Pix `PUT /cobr/{txid}`): the payer's bank debits it on `dueDate`
   * under the recurrence's authorization, so it has no BR Code.
   */
  recurrence?: { idRec: string; dueDate: string };
}

/**
 * A charge as the partner registered it. A PSP on the Pix network issues the charge's BR Code
 * itself: the payer's bank fetches the payload from that PSP's own location and checks it against
 * that PSP's certificate, so only the PSP that registered the charge can serve it.
 */
export interface RegisteredCharge {
  registeredAt: number;
  /** The PSP's `pixCopiaECola` and `location` (absent where the gateway hosts the location: sandbox). */
  brCode?: { copyAndPaste: string; location: string };
}

/** `removeCharge` refused because the charge was paid: the payment is a fact, so nothing is cancelled. */
export const CHARGE_PAID = 'CHARGE_PAID';

export type PartnerOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; failureCode: string; retryable: boolean };

export interface DevolutionRequest {
  /** The devolution's own end-to-end id (D…), which is also its idempotency id. */
  endToEndId: string;
  originalEndToEndId: string;
  amountCents: number;
}

export interface PaymentRequest {
  /** Partner-side idempotency id: the Cash-Out transactionId. */
  idempotencyId: string;
  amountCents: number;
  payee: {
    name: string;
    document: string;
    destination:
      | { type: 'PIX'; pixKeyType: string; pixKey: string }
      | {
          type: 'BANK_ACCOUNT';
          bankAccount: { ispb: string; branch: string; account: string; accountType: string };
        };
  };
  description: string | null;
}

export interface ReceivingAccount {
  ispb: string;
  branch: string;
  account: string;
}

export type TransferStatus =
  | { state: 'PENDING' }
  | { state: 'SETTLED'; endToEndId: string; settledAt: number; payeeBank?: ReceivingAccount }
  | { state: 'FAILED'; failureCode: string }
  | { state: 'UNKNOWN' };

/** A transfer's status read among many: or, for that one only, no answer (it is asked again later). */
export type StatusOrUnread = TransferStatus | { state: 'UNREAD'; reason: string };

export interface SettlementPartnerPort {
  readonly ispb: string;
  /**
   * Whether the partner issues its charges' BR Codes (a PSP on the Pix network); otherwise the
   * gateway builds them on its own location (the sandbox), which only a simulated network can pay.
   */
  readonly issuesBrCode: boolean;
  /**
   * Whether the partner reports who paid each received Pix (name and CPF/CNPJ): a client whose
   * payerPolicy is DECLARED_PAYER registers Cash-Ins only at such partners (docs/contract.md, Who paid).
   */
  readonly reportsPayer: boolean;
  /** Registers a dynamic charge so the PIX network routes its payment to the partner account. */
  registerCharge(charge: ChargeRegistration): Promise<PartnerOutcome<RegisteredCharge>>;
  /**
   * Takes a registered charge down (a Cash-In cancelled here), so payers can no longer pay it.
   * Absent where charges live nowhere else (the sandbox keeps none).
   */
  removeCharge?(txid: string): Promise<PartnerOutcome<null>>;
  /** Pix Automático at this partner (RecurrencePort below); absent: it offers none. */
  readonly recurrences?: RecurrencePort;
  /** Sends a devolution (refund) of a received payment. */
  sendDevolution(request: DevolutionRequest): Promise<PartnerOutcome<{ acceptedAt: number }>>;
  /** Sends a PIX payment (key lookup included); the outcome is read with `transferStatus`. */
  sendPayment(request: PaymentRequest): Promise<PartnerOutcome<{ acceptedAt: number }>>;
  /** Where a transfer sent with this idempotency id stands at the partner. */
  transferStatus(idempotencyId: string): Promise<TransferStatus>;
  /**
   * Many payments at once (one executor pass to this partner), answered in the requests' order; one
   * refused payment never affects the others. A bank without a multi-payment API sends them in concurrent rounds (concurrent-calls.ts).
   */
  sendPayments(requests: PaymentRequest[]): Promise<PartnerOutcome<{ acceptedAt: number }>[]>;
  /** Where many transfers stand, in the ids' order; one unreadable status is `UNREAD` alone. */
  transferStatuses(idempotencyIds: string[]): Promise<StatusOrUnread[]>;
  /** How many rounds of calls `size` payments take at this bank (1 with a multi-payment API): their time bound. */
  callRounds(size: number): number;
  /**
   * Where a devolution stands. API Pix addresses a devolution under the payment it returns, so
   * refunds ask here rather than `transferStatus`.
   */
  devolutionStatus(originalEndToEndId: string, devolutionId: string): Promise<TransferStatus>;
  /**
   * Sends the client's defense of a MED infraction (docs/contract.md, Disputes). Absent where the
   * partner takes none through its API (the sandbox records it as taken).
   */
  sendDisputeDefense?(defense: DisputeDefense): Promise<PartnerOutcome<null>>;
  /** MED infractions opened since `since` against Pix received (the sweep); absent: none reported. */
  infractions?(since: number): Promise<PartnerOutcome<ReportedInfraction[]>>;
}

export interface DisputeDefense {
  /** The infraction's id at the partner. */
  disputeId: string;
  text: string;
}

/** A MED infraction as the partner reports it. */
export interface ReportedInfraction {
  id: string;
  /** The disputed payment's end-to-end id. */
  endToEndId: string;
  status: 'OPEN' | 'ACCEPTED' | 'REJECTED' | 'CANCELLED';
  openedAt: number;
  respondBy: number;
  /** What the partner blocked, when it says. */
  amountCents?: number;
  /** When it was decided, once it was. */
  closedAt?: number;
}

/** A recurrence as sent to the partner (API Pix `POST /rec`, docs/contract.md, Pix Automático). */
export interface RecurrenceRegistration {
  /** API Pix `periodicidade`. */
  periodicidade: string;
  startDate: string;
  endDate: string | null;
  fixedAmountCents: number | null;
  minimumAmountCents: number | null;
  /** API Pix `politicaRetentativa`. */
  politicaRetentativa: string;
  contract: string;
  description: string | null;
  payer: { name: string; document: string };
  /** PUSH journey: the payer's account, where the authorization request goes (`POST /solicrec`). */
  payerBank: { ispb: string; branch: string; account: string } | null;
  /** When the payer's answer is due (`solicrec.calendario.dataExpiracaoSolicitacao`). */
  authorizationExpiresAt: number;
  /**
   * Whether a recurrence at the partner is already one of ours: a creation whose answer was lost
   * is looked for among the partner's, and one another recurrence claims is not it.
   */
  claimed?: (idRec: string) => Promise<boolean>;
}

export interface RegisteredRecurrence {
  /** The PSP's `idRec` (29 characters, API Pix `RecId`). */
  idRec: string;
  /** QR journey: the BR Code the payer reads (`dadosQR.pixCopiaECola`) and its location. */
  copyAndPaste?: string;
  location?: string;
  /** PUSH journey: the request pushed to the payer's bank. */
  idSolicRec?: string;
}

export type CancelledByAtPartner = 'CLIENT' | 'PAYER' | 'PAYER_BANK';

/** A recurrence as the partner has it (`GET /rec/{idRec}`). */
export interface RecurrenceAtPartner {
  idRec: string;
  status: 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
  cancelledBy?: CancelledByAtPartner;
}

/** One attempt of the payer's bank (`CobRCompleta.tentativas`). */
export interface ChargeAttempt {
  date: string;
  status: string;
  endToEndId: string;
}

/** A recurring charge as the partner has it (`GET /cobr/{txid}`). */
export interface RecurringChargeAtPartner {
  txid: string;
  idRec: string;
  status: 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
  attempts: ChargeAttempt[];
  /** The end-to-end ids of the Pix that paid it (`pix`), read again through `GET /pix/{e2eid}`. */
  paidBy: string[];
  cancelledBy?: CancelledByAtPartner;
}

/** Pix Automático at a partner that offers it (bacen/pix-api 2.9.0 `/rec`, `/solicrec`, `/cobr`, `/locrec`). */
export interface RecurrencePort {
  createRecurrence(r: RecurrenceRegistration): Promise<PartnerOutcome<RegisteredRecurrence>>;
  recurrence(idRec: string): Promise<PartnerOutcome<RecurrenceAtPartner>>;
  cancelRecurrence(idRec: string): Promise<PartnerOutcome<null>>;
  recurringCharge(txid: string): Promise<PartnerOutcome<RecurringChargeAtPartner>>;
  /** A retry on `date` (YYYY-MM-DD) where the recurrence's `politicaRetentativa` allows it. */
  retryCharge(txid: string, date: string): Promise<PartnerOutcome<RecurringChargeAtPartner>>;
}
