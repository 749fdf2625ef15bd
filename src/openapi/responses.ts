/**
 * Response shapes of the Cash-In and Cash-Out endpoints as valibot schemas (spec §2.2, §2.3, §4):
 * the one description of each shape, converted into the OpenAPI document and checked against real
 * responses in test/openapi. The domain views (src/domain/cash-in.ts, cash-out.ts) must produce
 * exactly these keys; test/openapi/view-types.test.ts fails to compile when they drift apart.
 */
import * as v from 'valibot';
import { CreateCashOutSchema } from '../api/cash-out/schemas';
import { FAILURE_CODES, FAILURE_MESSAGES } from '../domain/failure-codes';
import { BankData, BrtTimestamp, Count, Cursor, EndToEndId, Money } from './fields';

const TransactionIdentity = {
  internalCode: v.pipe(
    v.string(),
    v.description('Short service code; usable as `{id}` to poll.'),
    v.examples(['K7Q2M9X']),
  ),
  externalReference: v.pipe(v.string(), v.maxLength(50), v.examples(['pedido-1'])),
};

export const CashInStatus = v.picklist(['AWAITING_PAYMENT', 'PAID', 'EXPIRED', 'REFUNDED', 'CANCELLED']);

export const CashInReason = v.pipe(
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

const CashInTransactionId = v.pipe(
  v.string(),
  v.description('Payment-network TxId, alphanumeric (26 to 35 characters).'),
  v.examples(['a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6']),
);

/** GET /cash-in/{id}, list items and the data of every Cash-In event except CASHIN_REQUESTED. */
export const CashIn = v.object({
  transactionId: CashInTransactionId,
  ...TransactionIdentity,
  endToEndId: v.optional(EndToEndId),
  originalEndToEndId: v.optional(
    v.pipe(v.string(), v.description('The payment id when `endToEndId` is that of a refund.')),
  ),
  status: CashInStatus,
  reason: v.optional(CashInReason),
  refundFailure: v.optional(
    v.pipe(
      v.object({
        code: v.pipe(v.picklist(FAILURE_CODES), v.description('Why the devolution failed at the network.')),
        message: v.pipe(v.string(), v.description('Fixed English text per code; do not parse it.')),
      }),
      v.description(
        'Only on PAID, after a refund failed at the PIX network (`CASHIN_REFUND_FAILED` was sent): the money is available again and a new refund may be requested (its idempotency key is forgotten, so the same key starts a new attempt).',
      ),
    ),
  ),
  amount: Money,
  payer: v.object({
    name: v.string(),
    document: v.string(),
    bankData: v.optional(v.pipe(BankData, v.description('Returned after settlement; may be absent before.'))),
  }),
  settlement: v.optional(
    v.pipe(
      BankData,
      v.description('The service account that received the money; only on PAID and REFUNDED.'),
    ),
  ),
  requestedAt: BrtTimestamp,
  paidAt: v.optional(BrtTimestamp),
  refundedAt: v.optional(BrtTimestamp),
  cancelledAt: v.optional(BrtTimestamp),
  expiredAt: v.pipe(BrtTimestamp, v.description('End of the payment window, in every status.')),
});

/** POST /cash-in 201 (spec §4.4). */
export const CashInCreated = v.object({
  transactionId: CashInTransactionId,
  ...TransactionIdentity,
  status: v.literal('AWAITING_PAYMENT'),
  amount: Money,
  payer: v.object({ name: v.string(), document: v.string() }),
  pixData: v.optional(
    v.pipe(
      v.object({
        copyAndPaste: v.pipe(v.string(), v.description('The full BR Code payment payload.')),
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
});

/** POST /cash-in/{id}/refund 202 (spec §4.6, decisions §5). */
export const RefundAccepted = v.object({
  transactionId: CashInTransactionId,
  ...TransactionIdentity,
  endToEndId: v.pipe(EndToEndId, v.description('The devolution id (starts with `D`).')),
  status: v.literal('PROCESSING'),
  amount: Money,
  requestedAt: BrtTimestamp,
  message: v.string(),
});

export const CashOutStatus = v.picklist(['PROCESSING', 'PENDING', 'COMPLETED', 'CANCELLED', 'REFUNDED']);

const CashOutTransactionId = v.pipe(
  v.string(),
  v.uuid(),
  v.examples(['5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10']),
);

/** The request's destination union, reused so requests and responses cannot disagree. */
const Destination = CreateCashOutSchema.entries.payee.entries.destination;

export const CashOutFailure = v.pipe(
  v.object({
    code: v.pipe(
      v.picklist(FAILURE_CODES),
      v.description('Fixed catalog; handle an unknown future code as PROCESSING_ERROR.'),
    ),
    message: v.pipe(
      v.string(),
      v.description('Fixed English text per code, safe to show to operators; do not parse it.'),
      v.examples([FAILURE_MESSAGES.INSUFFICIENT_FUNDS]),
    ),
  }),
  v.description('Only when status is CANCELLED.'),
);

/** GET /cash-out/{id}, list items and the data of every Cash-Out event. */
export const CashOut = v.object({
  transactionId: CashOutTransactionId,
  ...TransactionIdentity,
  endToEndId: v.optional(EndToEndId),
  originalEndToEndId: v.optional(v.string()),
  status: CashOutStatus,
  amount: Money,
  failure: v.optional(CashOutFailure),
  reason: v.optional(
    v.pipe(
      v.picklist(['PAYEE_REQUESTED', 'FRAUD', 'OPERATIONAL_ERROR', 'REVERSED_BY_INSTITUTION', 'OTHER']),
      v.description('Only when status is REFUNDED.'),
    ),
  ),
  payee: v.object({
    name: v.string(),
    document: v.string(),
    destination: Destination,
    bankData: v.optional(BankData),
  }),
  settlement: v.optional(BankData),
  requestedAt: BrtTimestamp,
  completedAt: v.optional(BrtTimestamp),
  cancelledAt: v.optional(BrtTimestamp),
  refundedAt: v.optional(BrtTimestamp),
});

/** POST /cash-out 202 (spec §4.9). */
export const CashOutAccepted = v.object({
  transactionId: CashOutTransactionId,
  ...TransactionIdentity,
  status: v.literal('PROCESSING'),
  requestedAt: BrtTimestamp,
});

const page = <T extends v.GenericSchema>(item: T) =>
  v.object({
    items: v.array(item),
    nextCursor: v.optional(v.pipe(Cursor, v.description('Absent on the last page.'))),
    previousCursor: v.optional(v.pipe(Cursor, v.description('Absent on the first page.'))),
  });

export const CashInPage = page(CashIn);
export const CashOutPage = page(CashOut);

export const SummaryBucket = v.object({ count: Count, amount: Money });

const summary = <K extends string>(keys: readonly K[], note: string) =>
  v.object({
    from: BrtTimestamp,
    to: BrtTimestamp,
    currency: v.literal('BRL'),
    totals: v.pipe(
      v.object(
        Object.fromEntries(keys.map((k) => [k, v.optional(SummaryBucket)])) as Record<
          K,
          v.OptionalSchema<typeof SummaryBucket, undefined>
        >,
      ),
      v.description(`Status bucket → {count, amount}; a key appears only when it has transactions. ${note}`),
    ),
    settlement: v.pipe(
      v.array(v.object({ ispb: v.string(), bank: v.string(), count: Count, amount: Money })),
      v.description('Per settlement bank, ordered by amount descending.'),
    ),
  });

export const CashInSummary = summary(
  ['pending', 'paid', 'refunded', 'cancelled'],
  '`pending` = awaiting payment and expired; `cancelled` counts Cash-Ins cancelled through POST /cash-in/{id}/cancel. Settlement counts paid transactions only.',
);

export const CashOutSummary = summary(
  ['processing', 'pending', 'completed', 'cancelled', 'refunded'],
  'Keys are the Cash-Out statuses in lowercase. Settlement counts completed transactions only.',
);
