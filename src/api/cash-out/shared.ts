/**
 * What several Cash-Out operations share (docs/contract.md, Cash-Out lifecycle): the Cash-Out view
 * as documented, which GET /cash-out/{id}, the list items and every Cash-Out event carry, and its
 * examples. The view's keys, their optionality and nesting come from its field table
 * (src/domain/cash-out.ts CASH_OUT_FIELDS); here each key only gets its format and description.
 * Checked against real responses in test/openapi.
 */
import * as v from 'valibot';
import { CASH_OUT_FIELDS } from '../../domain/cash-out';
import { FAILURE_CODES, FAILURE_MESSAGES } from '../../domain/failure-codes';
import { type Out, SETTLEMENT } from '../../openapi/examples';
import { viewSchema } from '../../openapi/view-schema';
import { BankData, BrtTimestamp, EndToEndId, Money, TransactionIdentity } from '../../schemas/fields';
import { named } from '../../schemas/named';
import { type CashOutAccepted, CashOutTransactionId, CreateCashOutSchema } from './schemas';

export const TAG = 'Cash-Out';
/** The Cash-Out reads as src/openapi/transaction-operations.ts declares them. */
export const KIND = { label: TAG, path: '/cash-out' } as const;

export const CashOutStatus = v.picklist(['PROCESSING', 'PENDING', 'COMPLETED', 'CANCELLED', 'REFUNDED']);

/** The request's destination union, reused so requests and responses cannot disagree. */
const Destination = CreateCashOutSchema.entries.payee.entries.destination;

const CashOutFailure = named(
  'CashOutFailure',
  v.pipe(
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
  ),
);

/** GET /cash-out/{id}, list items and the data of every Cash-Out event: the view's fields, documented. */
export const CashOut = named(
  'CashOut',
  viewSchema(CASH_OUT_FIELDS, {
    transactionId: CashOutTransactionId,
    ...TransactionIdentity,
    status: CashOutStatus,
    amount: Money,
    payee: {
      name: v.string(),
      document: v.string(),
      destination: Destination,
      bankData: BankData,
    },
    requestedAt: BrtTimestamp,
    endToEndId: EndToEndId,
    originalEndToEndId: v.string(),
    failure: CashOutFailure,
    reason: v.pipe(
      v.picklist(['PAYEE_REQUESTED', 'FRAUD', 'OPERATIONAL_ERROR', 'REVERSED_BY_INSTITUTION', 'OTHER']),
      v.description('Only when status is REFUNDED.'),
    ),
    settlement: BankData,
    completedAt: BrtTimestamp,
    cancelledAt: BrtTimestamp,
    refundedAt: BrtTimestamp,
  }),
);

/** A Cash-Out as documented (clients and tests type with it). */
export type CashOutBody = v.InferOutput<typeof CashOut>;

export const cashOutCompleted: Out<typeof CashOut> = {
  transactionId: '5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10',
  internalCode: 'P4W8Z2R',
  externalReference: 'saque-1',
  endToEndId: 'E3188082620261121132012345678901',
  status: 'COMPLETED',
  amount: 250,
  payee: {
    name: 'Ana Beneficiária',
    document: '12345678909',
    destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana@example.com' },
    bankData: { ispb: '18236120', bank: 'Nu Pagamentos S.A.', branch: '0001', account: '9876543-2' },
  },
  settlement: SETTLEMENT,
  requestedAt: '2026-11-21T10:20:00.000-03:00',
  completedAt: '2026-11-21T10:20:03.512-03:00',
};

export const cashOutCancelled: Out<typeof CashOut> = {
  transactionId: '0a8e6d2c-3b1f-4c9a-8e7d-6f5a4b3c2d1e',
  internalCode: 'Q9X3V7T',
  externalReference: 'saque-3',
  status: 'CANCELLED',
  amount: 5000,
  failure: {
    code: 'INSUFFICIENT_FUNDS',
    message: 'The TRANSACTIONAL balance was not enough for this transfer.',
  },
  payee: {
    name: 'Ana Beneficiária',
    document: '12345678909',
    destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f' },
  },
  requestedAt: '2026-11-21T10:25:00.000-03:00',
  cancelledAt: '2026-11-21T10:25:00.412-03:00',
};

export const cashOutAccepted: Out<typeof CashOutAccepted> = {
  transactionId: '5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10',
  internalCode: 'P4W8Z2R',
  externalReference: 'saque-1',
  status: 'PROCESSING',
  requestedAt: '2026-11-21T10:20:00.000-03:00',
};
