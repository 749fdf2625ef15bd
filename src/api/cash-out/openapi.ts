/** Cash-Out operations (docs/contract.md, Cash-Out lifecycle, Lookup by id, Summaries). */
import type * as v from 'valibot';
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { cashOutIdParameter } from '../../openapi/parameters';
import { getOperation, listOperation, summaryOperation } from '../../openapi/transaction-operations';
import * as ex from './openapi-examples';
import type * as cash from './openapi-responses';
import { CashOut, CashOutAccepted, CashOutPage, CashOutSummary } from './openapi-responses';
import { CreateCashOutSchema } from './schemas';

const TAG = 'Cash-Out';
const KIND = {
  label: TAG,
  path: '/cash-out',
  schemas: { view: CashOut, page: CashOutPage, summary: CashOutSummary },
} as const;

export const cashOutOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/cash-out',
    operationId: 'createCashOut',
    summary: 'Create a Cash-Out',
    description:
      'Accepted asynchronously: 202 only means accepted for processing. Balance, withdrawal limits, PIX key lookup, security rules and the receiving institution are checked after the 202, so an accepted Cash-Out can end CANCELLED with `failure.code` (for example INSUFFICIENT_FUNDS); insufficient balance is never an HTTP error here. The outcome always arrives as an event (`CASHOUT_COMPLETED`, `CASHOUT_FAILED`, later `CASHOUT_REFUNDED`).\n\nStaging: a PIX key of type EMAIL equal to `<failure code in lowercase>@sandbox.pix` ends CANCELLED with that code.',
    tag: TAG,
    auth: 'signed',
    idempotent: true,
    body: {
      schema: CreateCashOutSchema,
      examples: {
        pix: example('To a PIX key', ex.createCashOutRequest),
        bankAccount: example('To bank account data', ex.createBankAccountCashOutRequest),
      },
    },
    success: {
      '202': {
        description: 'Accepted: status PROCESSING.',
        schema: CashOutAccepted,
        examples: { accepted: example('Accepted', ex.cashOutAccepted) },
      },
    },
    errors: ['VALIDATION_ERROR', 'DUPLICATED_EXTERNAL_REFERENCE'],
  },
  listOperation(KIND, example('Last page', { items: [ex.cashOutCompleted, ex.cashOutCancelled] })),
  summaryOperation(
    KIND,
    { success: 'The summary; failed Cash-Outs count under `cancelled`.' },
    example('November', {
      from: '2026-11-01T00:00:00.000-03:00',
      to: '2026-11-30T23:59:59.999-03:00',
      currency: 'BRL',
      totals: { completed: { count: 8, amount: 2200 }, cancelled: { count: 1, amount: 5000 } },
      settlement: [{ ispb: '31880826', bank: 'Banco Alfa Liquidações S.A.', count: 8, amount: 2200 }],
    }),
  ),
  getOperation(
    KIND,
    cashOutIdParameter,
    'The Cash-Out.',
    {
      completed: example('Completed', ex.cashOutCompleted),
      cancelled: example('Cancelled after the 202', ex.cashOutCancelled),
    },
    'CASHOUT_NOT_FOUND',
  ),
];

/** The response bodies of this resource, as documented (clients and tests type with these). */
export type CashOutBody = v.InferOutput<typeof cash.CashOut>;
export type CashOutAcceptedBody = v.InferOutput<typeof cash.CashOutAccepted>;
export type CashOutPageBody = v.InferOutput<typeof cash.CashOutPage>;
export type CashOutSummaryBody = v.InferOutput<typeof cash.CashOutSummary>;
