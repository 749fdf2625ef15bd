/**
 * Response shapes of the Cash-Out endpoints as valibot schemas (docs/contract.md, Cash-Out lifecycle): the
 * one description of each shape, converted into the OpenAPI document and checked against real responses in
 * test/openapi. The view's keys, their optionality and nesting come from its field table
 * (src/domain/cash-out.ts CASH_OUT_FIELDS); here each key only gets its format and description.
 */
import * as v from 'valibot';
import { CASH_OUT_FIELDS } from '../../domain/cash-out';
import { FAILURE_CODES, FAILURE_MESSAGES } from '../../domain/failure-codes';
import { BankData, BrtTimestamp, EndToEndId, Money } from '../../openapi/fields';
import { page, summary, TransactionIdentity } from '../../openapi/responses';
import { viewSchema } from '../../openapi/view-schema';
import { named } from '../../schemas/named';
import { CreateCashOutSchema } from './schemas';

export const CashOutStatus = v.picklist(['PROCESSING', 'PENDING', 'COMPLETED', 'CANCELLED', 'REFUNDED']);

const CashOutTransactionId = v.pipe(
  v.string(),
  v.uuid(),
  v.examples(['5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10']),
);

/** The request's destination union, reused so requests and responses cannot disagree. */
const Destination = CreateCashOutSchema.entries.payee.entries.destination;

export const CashOutFailure = named(
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

/** POST /cash-out 202 (OpenAPI createCashOut). */
export const CashOutAccepted = named(
  'CashOutAccepted',
  v.object({
    transactionId: CashOutTransactionId,
    ...TransactionIdentity,
    status: v.literal('PROCESSING'),
    requestedAt: BrtTimestamp,
  }),
);

export const CashOutPage = named('CashOutPage', page(CashOut));

export const CashOutSummary = named(
  'CashOutSummary',
  summary(
    ['processing', 'pending', 'completed', 'cancelled', 'refunded'],
    'Keys are the Cash-Out statuses in lowercase. Settlement counts completed transactions only.',
  ),
);
