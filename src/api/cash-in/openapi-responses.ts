/**
 * Response shapes of the Cash-In endpoints as valibot schemas (docs/contract.md, Cash-In lifecycle): the
 * one description of each shape, converted into the OpenAPI document and checked against real responses in
 * test/openapi. The view's keys, their optionality and nesting come from its field table
 * (src/domain/cash-in.ts CASH_IN_FIELDS); here each key only gets its format and description.
 */
import * as v from 'valibot';
import { CASH_IN_FIELDS } from '../../domain/cash-in';
import { FAILURE_CODES } from '../../domain/failure-codes';
import { BankData, BrtTimestamp, EndToEndId, Money } from '../../openapi/fields';
import { page, summary, TransactionIdentity } from '../../openapi/responses';
import { viewSchema } from '../../openapi/view-schema';
import { named } from '../../schemas/named';

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
        "The payment's end-to-end id; once REFUNDED, the devolution's as the network knows it (a real partner: its PSP's `rtrId`, the id on the payer's receipt).",
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
        'Only on PAID, after a refund failed at the PIX network (`CASHIN_REFUND_FAILED` was sent): the money is available again and a new refund may be requested (its idempotency key is forgotten, so the same key starts a new attempt).',
      ),
    ),
    amount: Money,
    payer: {
      name: v.string(),
      document: v.string(),
      bankData: v.pipe(BankData, v.description('Returned after settlement; may be absent before.')),
    },
    settlement: v.pipe(
      BankData,
      v.description('The service account that received the money; only on PAID and REFUNDED.'),
    ),
    requestedAt: BrtTimestamp,
    paidAt: BrtTimestamp,
    refundedAt: BrtTimestamp,
    cancelledAt: BrtTimestamp,
    expiredAt: v.pipe(BrtTimestamp, v.description('End of the payment window, in every status.')),
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
              "The full BR Code payment payload: on a real partner exactly its PSP's `pixCopiaECola`; on the sandbox partner one naming the gateway's location.",
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

/** POST /cash-in/{id}/refund 202 (OpenAPI refundCashIn; docs/contract.md, Cash-In lifecycle). */
export const RefundAccepted = named(
  'RefundAccepted',
  v.object({
    transactionId: CashInTransactionId,
    ...TransactionIdentity,
    endToEndId: v.pipe(
      EndToEndId,
      v.description(
        "The devolution id the gateway asked under (starts with `D`). On a real partner, once the devolution settles the Cash-In's `endToEndId` becomes its PSP's `rtrId`, the network's id for it.",
      ),
    ),
    status: v.literal('PROCESSING'),
    amount: Money,
    requestedAt: BrtTimestamp,
    message: v.string(),
  }),
);

export const CashInPage = named('CashInPage', page(CashIn));

export const CashInSummary = named(
  'CashInSummary',
  summary(
    ['pending', 'paid', 'refunded', 'cancelled'],
    '`pending` = awaiting payment and expired; `cancelled` counts Cash-Ins cancelled through POST /cash-in/{id}/cancel. Settlement counts paid transactions only.',
  ),
);
