/** GET /account/balance (docs/contract.md, Statement and balance): every account, by partner, with totals. */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import { parseBound } from '../../domain/period';
import { balanceBody } from '../../domain/wallet';
import type { Input } from '../../http/pipeline';
import type { ApiRequest } from '../../http/request-context';
import { operationResponse } from '../../http/respond';
import { validationError } from '../../http/validation';
import { example, type Out } from '../../openapi/examples';
import { balanceParameters } from '../../openapi/parameters';
import { AccountType, BrtTimestamp, Ispb, Money } from '../../schemas/fields';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { AccountNumber } from './schemas';
import { TAG } from './shared';

export const Balance = named(
  'Balance',
  v.object({
    currency: v.literal('BRL'),
    asOf: BrtTimestamp,
    totals: v.object({ transactional: Money, proprietary: Money, total: Money }),
    partners: v.array(
      v.object({
        ispb: Ispb,
        bank: v.string(),
        accounts: v.array(
          v.object({
            number: AccountNumber,
            branch: v.string(),
            type: AccountType,
            balance: v.pipe(Money, v.description('Ledger balance.')),
            available: v.optional(
              v.pipe(
                Money,
                v.description(
                  'Balance minus holds (operations in flight and open disputes); may be below ' +
                    'zero while a dispute blocks money already paid out. Only on the current balance (no `at`).',
                ),
              ),
            ),
            blocked: v.optional(
              v.pipe(
                Money,
                v.description(
                  'What open MED disputes hold on the account (the sum of their ' +
                    '`blockedAmount`); refunds in flight are not in it. Only on the current balance (no `at`).',
                ),
              ),
            ),
          }),
        ),
      }),
    ),
  }),
);

export type BalanceBody = v.InferOutput<typeof Balance>;

const balance: Out<typeof Balance> = {
  currency: 'BRL',
  asOf: '2026-11-21T12:00:00.000-03:00',
  totals: { transactional: 1150.25, proprietary: 5000, total: 6150.25 },
  partners: [
    {
      ispb: '31880826',
      bank: 'Banco Alfa Liquidações S.A.',
      accounts: [
        {
          number: '10000001-5',
          branch: '0001',
          type: 'TRANSACTIONAL',
          balance: 1150.25,
          available: 900.25,
          blocked: 150.25,
        },
        {
          number: '10000002-3',
          branch: '0001',
          type: 'PROPRIETARY',
          balance: 5000,
          available: 5000,
          blocked: 0,
        },
      ],
    },
  ],
};

/** `at`: a plain date (its end, 23:59:59.999) or a timestamp, read like a period `to` bound. */
function balanceInstant(request: ApiRequest): number | undefined {
  const raw = request.query.at;
  if (raw === undefined) return undefined;
  const at = Array.isArray(raw) ? undefined : parseBound(String(raw), 'to');
  if (at === undefined) {
    throw validationError(
      { at: ['at must be a date YYYY-MM-DD or an ISO 8601 timestamp, given once'] },
      'Invalid query parameters',
    );
  }
  return at;
}

async function handleBalance({ request, env, principal }: Input<{ principal: true }>): Promise<Response> {
  const at = balanceInstant(request);
  const result = await ledgerOf(env, principal.clientId).balances(at);
  return operationResponse(result, (b) => balanceBody(b.asOf, b.accounts));
}

export const getBalance = route(
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
        examples: { now: example('Current', balance) },
      },
    },
    errors: ['VALIDATION_ERROR', 'RETROACTIVE_BALANCE_NOT_IMPLEMENTED'],
  },
  handleBalance,
);
