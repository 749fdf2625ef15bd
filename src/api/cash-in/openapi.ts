/** Cash-In operations (docs/contract.md, Cash-In lifecycle). */
import type * as v from 'valibot';
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { cashInIdParameter } from '../../openapi/parameters';
import { getOperation, listOperation, summaryOperation } from '../../openapi/transaction-operations';
import * as ex from './openapi-examples';
import type * as cash from './openapi-responses';
import { CashIn, CashInCreated, CashInPage, CashInSummary, RefundAccepted } from './openapi-responses';
import { CreateCashInSchema } from './schemas';
import { RefundSchema } from './schemas-refund';

const TAG = 'Cash-In';
const KIND = {
  label: TAG,
  path: '/cash-in',
  schemas: { view: CashIn, page: CashInPage, summary: CashInSummary },
} as const;

export const cashInOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/cash-in',
    operationId: 'createCashIn',
    summary: 'Create a Cash-In',
    description:
      "Creates a charge. Standard flow: the answer carries `pixData.copyAndPaste` (a dynamic BR Code whose location serves the signed charge) and, unless `includeQrCodeImage` is false, the QR code of exactly that string as Base64 PNG. On a real partner (a declared `bcb-api-pix` partner) `copyAndPaste` is the `pixCopiaECola` its PSP returned when the charge was registered (`PUT /cob/{txid}`, the payer sent as `devedor`), naming the PSP's own location, where a payer's bank reads the payload signed by that PSP; on the sandbox partner the location is the gateway's (GET /pix/qr/{locator}). With `openFinance` the answer carries `openFinanceData.paymentUrl` instead: the sandbox partner only (a staging consent page); on a real partner 422 RULE_VIOLATION, nothing registered. `CASHIN_PAID` is posted to `webhookUrl` when the payment is confirmed.",
    tag: TAG,
    auth: 'client',
    idempotent: true,
    body: {
      schema: CreateCashInSchema,
      examples: {
        pix: example('PIX (BR Code) flow', ex.createCashInRequest),
        openFinance: example('Open-finance flow', ex.createOpenFinanceCashInRequest),
      },
    },
    success: {
      '201': {
        description: 'Created: status AWAITING_PAYMENT.',
        schema: CashInCreated,
        examples: { created: example('BR Code without image', ex.cashInCreated) },
      },
    },
    errors: ['VALIDATION_ERROR', 'DUPLICATED_EXTERNAL_REFERENCE', 'RULE_VIOLATION'],
  },
  listOperation(KIND, example('A page with more to come', ex.cashInPage)),
  summaryOperation(
    KIND,
    {
      description:
        'Counts and amounts per status bucket and per settlement bank for Cash-Ins created in the period.',
      success: 'The summary.',
    },
    example('November', ex.cashInSummary),
  ),
  getOperation(
    KIND,
    cashInIdParameter,
    'The Cash-In (without `pixData`/`openFinanceData`).',
    {
      awaiting: example('Awaiting payment', ex.cashInAwaiting),
      paid: example('Paid', ex.cashInPaid),
      refunded: example('Refunded', ex.cashInRefunded),
    },
    'CASHIN_NOT_FOUND',
  ),
  {
    method: 'post',
    path: '/cash-in/{id}/refund',
    operationId: 'refundCashIn',
    summary: 'Refund a paid Cash-In',
    description:
      'Full refund only. Answers 202 with the devolution `endToEndId` (starts with `D`) and status PROCESSING; the Cash-In stays PAID until the devolution settles, then becomes REFUNDED and `CASHIN_REFUNDED` is sent. A second refund meanwhile answers 422 REFUND_NOT_ALLOWED. If the network fails the devolution, `CASHIN_REFUND_FAILED` is sent and the Cash-In is PAID again with `refundFailure`; the idempotency key of the failed refund is forgotten, so the same key starts a new attempt.',
    tag: TAG,
    auth: 'signed',
    idempotent: true,
    parameters: [cashInIdParameter],
    body: {
      schema: RefundSchema,
      examples: {
        refund: example('Customer asked for it', { reason: 'CUSTOMER_REQUEST', description: 'Ticket 4711' }),
      },
    },
    success: {
      '202': {
        description: 'Accepted: the devolution was sent to the PIX network.',
        schema: RefundAccepted,
        examples: { accepted: example('Refund in progress', ex.refundAccepted) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CASHIN_NOT_FOUND', 'REFUND_NOT_ALLOWED', 'MISSING_E2E', 'RULE_VIOLATION'],
  },
  {
    method: 'post',
    path: '/cash-in/{id}/cancel',
    operationId: 'cancelCashIn',
    summary: 'Cancel an unpaid Cash-In',
    description:
      'Only from AWAITING_PAYMENT (else 422 RULE_VIOLATION). The Cash-In becomes CANCELLED with `cancelledAt`; `CASHIN_CANCELLED` is sent. With a real settlement partner the charge is first taken down there, so no payer can pay it afterwards; if the partner reports it already paid, the answer is 422 RULE_VIOLATION and the payment is recorded (the Cash-In becomes PAID).',
    tag: TAG,
    auth: 'client',
    parameters: [cashInIdParameter],
    success: {
      '200': {
        description: 'The Cash-In as GET returns it, CANCELLED.',
        schema: CashIn,
        examples: {
          cancelled: example('Cancelled', {
            ...ex.cashInAwaiting,
            status: 'CANCELLED',
            cancelledAt: '2026-11-21T10:30:00.000-03:00',
          }),
        },
      },
    },
    errors: ['CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
  },
];

/** The response bodies of this resource, as documented (clients and tests type with these). */
export type CashInBody = v.InferOutput<typeof cash.CashIn>;
export type CashInCreatedBody = v.InferOutput<typeof cash.CashInCreated>;
export type RefundAcceptedBody = v.InferOutput<typeof cash.RefundAccepted>;
export type CashInSummaryBody = v.InferOutput<typeof cash.CashInSummary>;
