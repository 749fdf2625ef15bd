/**
 * What several Cash-In operations share (docs/contract.md, Cash-In lifecycle): the Cash-In view as
 * documented, which GET /cash-in/{id}, the list items, the cancel answer and every Cash-In event
 * carry, and its examples. The view's keys, their optionality and nesting come from its field table
 * (src/domain/cash-in.ts CASH_IN_FIELDS); here each key only gets its format and description.
 * Checked against real responses in test/openapi.
 */
import * as v from 'valibot';
import { CASH_IN_FIELDS, DISPUTE_STATUSES } from '../../domain/cash-in';
import { FAILURE_CODES } from '../../domain/failure-codes';
import { qrPngBase64 } from '../../domain/qr-png';
import { type Out, PAYER_BANK, SETTLEMENT } from '../../openapi/examples';
import { viewSchema } from '../../openapi/view-schema';
import {
  BankData,
  BrtTimestamp,
  EndToEndId,
  Money,
  PayerBankData,
  TransactionIdentity,
} from '../../schemas/fields';
import { named } from '../../schemas/named';
import { CashInTransactionId } from './schemas';

export const TAG = 'Cash-In';
/** The Cash-In reads as src/openapi/transaction-operations.ts declares them. */
export const KIND = { label: TAG, path: '/cash-in' } as const;

export const CashInStatus = v.picklist(['AWAITING_PAYMENT', 'PAID', 'EXPIRED', 'REFUNDED', 'CANCELLED']);

const CashInReason = v.pipe(
  v.picklist([
    'FRAUD',
    'DUPLICATED_PAYMENT',
    'CUSTOMER_REQUEST',
    'MERCHANT_ERROR',
    'PAYER_NOT_ALLOWED',
    'OTHER',
  ]),
  v.description('Only when status is REFUNDED.'),
);

export const CalendarDate = v.pipe(v.string(), v.isoDate(), v.examples(['2027-01-31']));

export const RecurrenceId = v.pipe(
  v.string(),
  v.regex(/^R[RN][0-9A-Z]{8}\d{8}[A-Za-z0-9]{11}$/),
  v.description('API Pix `idRec`: RR (retries allowed) or RN, the ISPB, yyyyMMdd and 11 letters or digits.'),
  v.examples(['RR3188082620270120abcDEF12345']),
);

/** A Pix Automático cycle's charge (docs/contract.md, Pix Automático): its recurrence, cycle and attempts. */
export const RecurringCharge = named(
  'RecurringCharge',
  v.object({
    recurrenceId: RecurrenceId,
    cycle: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.description('0 is the cycle due on `startDate`.'),
    ),
    dueDate: CalendarDate,
    failedAttempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
    attemptsLeft: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.description(
        "The payer bank's attempts still allowed: 2 on the due date, 3 more with THREE_IN_SEVEN_DAYS.",
      ),
    ),
  }),
);

/** Who actually paid (docs/contract.md, Who paid). */
const PaidBy = named(
  'PaidBy',
  v.pipe(
    v.object({
      name: v.optional(v.pipe(v.string(), v.description('Where the partner reports it.'))),
      document: v.optional(
        v.pipe(
          v.string(),
          v.description('CPF or CNPJ of the paying account holder, where the partner reports it.'),
        ),
      ),
      bankData: PayerBankData,
      allowed: v.pipe(
        v.boolean(),
        v.description(
          "The client's payer rules (`blockedPayerDocuments`, `payerPolicy`) on this account. " +
            '`false`: the payment was never confirmed (no `CASHIN_PAID`), its money is held and returned to ' +
            'the payer; the Cash-In ends REFUNDED with reason PAYER_NOT_ALLOWED and `CASHIN_REFUNDED`.',
        ),
      ),
    }),
    v.description(
      "The account that actually paid, as the network reported it: on PAID and REFUNDED Cash-Ins that money reached (sandbox: the pay request's payer).",
    ),
  ),
);
export const DisputeStatus = v.picklist(DISPUTE_STATUSES);

/** A MED infraction against the payment: present once opened, in every later status. */
const DISPUTE_DOCS = {
  id: v.pipe(v.string(), v.description("The infraction's id at the settlement partner.")),
  status: v.pipe(
    DisputeStatus,
    v.description(
      'OPEN, DEFENDED (defense sent), ACCEPTED (the payer bank takes `blockedAmount` back), REJECTED or CANCELLED (the block is lifted).',
    ),
  ),
  openedAt: BrtTimestamp,
  respondBy: v.pipe(BrtTimestamp, v.description("The partner's deadline for the defense.")),
  blockedAmount: v.pipe(
    Money,
    v.description('What the partner blocked; held on the TRANSACTIONAL account while OPEN or DEFENDED.'),
  ),
  defendedAt: BrtTimestamp,
  closedAt: BrtTimestamp,
};

/**
 * GET /cash-in/{id}, list items and the data of every Cash-In event except CASHIN_REQUESTED: the
 * view's fields, documented.
 */
export const CashIn = named(
  'CashIn',
  viewSchema(CASH_IN_FIELDS, {
    transactionId: CashInTransactionId,
    ...TransactionIdentity,
    endToEndId: v.pipe(
      EndToEndId,
      v.description(
        "The payment's end-to-end id; once REFUNDED, the devolution's as the network knows it (a " +
          "real partner: its PSP's `rtrId`, the id on the payer's receipt).",
      ),
    ),
    originalEndToEndId: v.pipe(
      v.string(),
      v.description('The payment id when `endToEndId` is that of a refund.'),
    ),
    status: CashInStatus,
    reason: CashInReason,
    refundFailure: v.pipe(
      v.object({
        code: v.pipe(v.picklist(FAILURE_CODES), v.description('Why the devolution failed at the network.')),
        message: v.pipe(v.string(), v.description('Fixed English text per code; do not parse it.')),
      }),
      v.description(
        'Only on PAID, after a refund failed at the PIX network (`CASHIN_REFUND_FAILED` was ' +
          'sent): the money is available again and a new refund may be requested (its idempotency key is ' +
          'forgotten, so the same key starts a new attempt).',
      ),
    ),
    amount: Money,
    payer: {
      name: v.string(),
      document: v.string(),
      bankData: v.pipe(
        PayerBankData,
        v.description(
          "Returned after settlement: the paying account's bank, equal to `paidBy.bankData`. `name` and `document` stay what the client declared.",
        ),
      ),
    },
    paidBy: PaidBy,
    settlement: v.pipe(
      BankData,
      v.description('The service account that received the money; only on PAID and REFUNDED.'),
    ),
    requestedAt: BrtTimestamp,
    paidAt: BrtTimestamp,
    refundedAt: BrtTimestamp,
    cancelledAt: BrtTimestamp,
    expiredAt: v.pipe(BrtTimestamp, v.description('End of the payment window, in every status.')),
    dispute: DISPUTE_DOCS,
    recurrence: v.pipe(
      RecurringCharge,
      v.description('Only on a Pix Automático charge (POST /recurrences/{id}/charges), in every status.'),
    ),
  }),
);

/** POST /cash-in 201 (OpenAPI createCashIn). */
export const CashInCreated = named(
  'CashInCreated',
  v.object({
    transactionId: CashInTransactionId,
    ...TransactionIdentity,
    status: v.literal('AWAITING_PAYMENT'),
    amount: Money,
    payer: v.object({ name: v.string(), document: v.string() }),
    pixData: v.optional(
      v.pipe(
        v.object({
          copyAndPaste: v.pipe(
            v.string(),
            v.description(
              "The full BR Code payment payload: on a real partner exactly its PSP's " +
                "`pixCopiaECola`; on the sandbox partner one naming the gateway's location.",
            ),
          ),
          qrCodeImageBase64: v.optional(
            v.pipe(v.string(), v.description('PNG, Base64; only when `includeQrCodeImage` is true.')),
          ),
        }),
        v.description('Standard flow.'),
      ),
    ),
    openFinanceData: v.optional(
      v.pipe(
        v.object({ paymentUrl: v.pipe(v.string(), v.url()) }),
        v.description('Open-finance flow: redirect the payer to `paymentUrl`.'),
      ),
    ),
    requestedAt: BrtTimestamp,
  }),
);

export type CashInCreatedBody = v.InferOutput<typeof CashInCreated>;

/** A Cash-In as documented (clients and tests type with it). */
export type CashInBody = v.InferOutput<typeof CashIn>;

export const cashInPaid: Out<typeof CashIn> = {
  transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
  internalCode: 'K7Q2M9X',
  externalReference: 'pedido-1',
  endToEndId: 'E6070119020261121131812345678901',
  status: 'PAID',
  amount: 150.25,
  payer: { name: 'Maria da Silva', document: '12345678909', bankData: PAYER_BANK },
  paidBy: { name: 'Maria da Silva', document: '12345678909', bankData: PAYER_BANK, allowed: true },
  settlement: SETTLEMENT,
  requestedAt: '2026-11-21T10:15:30.123-03:00',
  paidAt: '2026-11-21T10:18:02.481-03:00',
  expiredAt: '2026-11-21T11:15:30.123-03:00',
};

export const cashInAwaiting: Out<typeof CashIn> = {
  transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
  internalCode: 'K7Q2M9X',
  externalReference: 'pedido-1',
  status: 'AWAITING_PAYMENT',
  amount: 150.25,
  payer: { name: 'Maria da Silva', document: '12345678909' },
  requestedAt: '2026-11-21T10:15:30.123-03:00',
  expiredAt: '2026-11-21T11:15:30.123-03:00',
};

export const cashInRefunded: Out<typeof CashIn> = {
  ...cashInPaid,
  endToEndId: 'D3188082620261121140112345678901',
  originalEndToEndId: 'E6070119020261121131812345678901',
  status: 'REFUNDED',
  reason: 'CUSTOMER_REQUEST',
  refundedAt: '2026-11-21T11:01:12.004-03:00',
};

/** An open dispute, which the defense's and the sandbox's examples move on. */
export const disputeOpen: NonNullable<Out<typeof CashIn>['dispute']> = {
  id: 'MED-0000000001',
  status: 'OPEN',
  openedAt: '2026-11-22T09:00:00.000-03:00',
  respondBy: '2026-11-25T09:00:00.000-03:00',
  blockedAmount: 150.25,
};

export const cashInDisputed: Out<typeof CashIn> = { ...cashInPaid, dispute: disputeOpen };

/**
 * A creation's answer whose `key` object holds a BR Code (a Cash-In's `pixData`, a recurrence's
 * `authorization`), with that code's QR as a Base64 PNG added when asked. The image is derived from
 * the stored payload, so a replay renders the very same image.
 */
export function withQrCodeImage<T extends object, K extends keyof T>(body: T, key: K, include: boolean): T {
  const holder = body[key] as { copyAndPaste?: string } | undefined;
  if (!include || !holder?.copyAndPaste) return body;
  return { ...body, [key]: { ...holder, qrCodeImageBase64: qrPngBase64(holder.copyAndPaste) } };
}
