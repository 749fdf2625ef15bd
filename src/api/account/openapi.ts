/**
 * Account operations: statement and balance (docs/contract.md, Statement and balance), rebalance
 * (docs/contract.md, Rebalance).
 */
import type * as v from 'valibot';
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { accountNumberParameter, balanceParameters, listParameters } from '../../openapi/parameters';
import * as ex from './openapi-examples';
import type * as account from './openapi-responses';
import { Balance, Rebalance, Statement } from './openapi-responses';
import { RebalanceSchema } from './schemas';

const TAG = 'Account';

const rebalance = (direction: 'top-up' | 'sweep'): OperationSpec => ({
  method: 'post',
  path: `/account/rebalance/${direction}`,
  operationId: direction === 'top-up' ? 'topUp' : 'sweep',
  summary:
    direction === 'top-up' ? 'Top up: PROPRIETARY → TRANSACTIONAL' : 'Sweep: TRANSACTIONAL → PROPRIETARY',
  description: `Moves money between the two accounts the client holds at one settlement partner (\`ispb\`, default the client's first partner). Both legs appear in the statement as TRANSFER_OUT / TRANSFER_IN. \`amount\` ≤ 0 answers 422 INVALID_AMOUNT after the DigitalSignature check; not enough available money in the source account answers 422 ${direction === 'top-up' ? 'INSUFFICIENT_PROPRIETARY_FUNDS' : 'INSUFFICIENT_TRANSACTIONAL_FUNDS'}.`,
  tag: TAG,
  auth: 'signed',
  idempotent: true,
  body: {
    schema: RebalanceSchema,
    examples: { amount: example('R$ 1.000,00 at the first partner', { amount: 1000 }) },
  },
  success: {
    '201': {
      description: 'Done: both legs posted.',
      schema: Rebalance,
      examples: {
        done: example(
          'Completed',
          direction === 'top-up'
            ? ex.rebalance
            : { ...ex.rebalance, direction: 'SWEEP', from: ex.rebalance.to, to: ex.rebalance.from },
        ),
      },
    },
  },
  errors: [
    'VALIDATION_ERROR',
    'INVALID_AMOUNT',
    direction === 'top-up' ? 'INSUFFICIENT_PROPRIETARY_FUNDS' : 'INSUFFICIENT_TRANSACTIONAL_FUNDS',
  ],
});

export const accountOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/account/balance',
    operationId: 'getBalance',
    summary: 'Consolidated balance',
    description:
      'Balances of every account of the client, grouped by settlement partner (TRANSACTIONAL first), with totals.',
    tag: TAG,
    auth: 'client',
    parameters: balanceParameters,
    success: {
      '200': {
        description: 'The balance.',
        schema: Balance,
        examples: { now: example('Current', ex.balance) },
      },
    },
    errors: ['VALIDATION_ERROR', 'RETROACTIVE_BALANCE_NOT_IMPLEMENTED'],
  },
  rebalance('top-up'),
  rebalance('sweep'),
  {
    method: 'get',
    path: '/account/{number}/statement',
    operationId: 'getStatement',
    summary: 'Account statement',
    description:
      "Every credit and debit of one of the client's accounts, filtered on when the entry hit the account, oldest first by default. Data starts at the client's statement start date: an earlier `from` answers 422 LIST_FROM_BEFORE_CUTOFF (the detail names the first available date).",
    tag: TAG,
    auth: 'client',
    parameters: [accountNumberParameter, ...listParameters],
    success: {
      '200': {
        description: 'One page of entries.',
        schema: Statement,
        examples: { page: example('One entry', ex.statement) },
      },
    },
    errors: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND', 'LIST_ORDER_MISMATCH', 'LIST_FROM_BEFORE_CUTOFF'],
  },
];

/** The response bodies of this resource, as documented (clients and tests type with these). */
export type BalanceBody = v.InferOutput<typeof account.Balance>;
export type RebalanceBody = v.InferOutput<typeof account.Rebalance>;
export type DepositBody = v.InferOutput<typeof account.Deposit>;
