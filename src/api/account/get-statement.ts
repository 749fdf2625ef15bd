/** GET /account/{number}/statement (docs/contract.md, Statement and balance): one account's entries, by page. */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import { formatBrt } from '../../domain/time';
import { accountNumberParam } from '../../http/account-number';
import { json } from '../../http/json';
import { pageBody, parseListQuery } from '../../http/list-query';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { example, type Out } from '../../openapi/examples';
import { accountNumberParameter, listParameters } from '../../openapi/parameters';
import { AccountType, BrtTimestamp, Cursor } from '../../schemas/fields';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { AccountNumber, Bank, StatementItem } from './schemas';
import { TAG } from './shared';

export const Statement = named(
  'Statement',
  v.object({
    account: v.object({
      number: AccountNumber,
      branch: v.nullable(v.string()),
      type: AccountType,
      bank: Bank,
    }),
    period: v.pipe(
      v.object({ from: BrtTimestamp, to: BrtTimestamp, order: v.picklist(['asc', 'desc']) }),
      v.description('The period actually applied.'),
    ),
    items: v.array(StatementItem),
    nextCursor: v.optional(Cursor),
    previousCursor: v.optional(Cursor),
  }),
);

const statement: Out<typeof Statement> = {
  account: {
    number: '10000001-5',
    branch: '0001',
    type: 'TRANSACTIONAL',
    bank: { ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' },
  },
  period: { from: '2026-11-01T00:00:00.000-03:00', to: '2026-11-30T23:59:59.999-03:00', order: 'asc' },
  items: [
    {
      id: 'LE0000000001',
      date: '2026-11-21T10:18:02.481-03:00',
      direction: 'CREDIT',
      type: 'PIX_IN',
      typeRaw: 'PIX_IN',
      amount: 150.25,
      balanceAfter: 1150.25,
      description: 'PIX recebido pedido-1',
      endToEndId: 'E6070119020261121131812345678901',
    },
  ],
};

async function handleStatement({ request, env, principal }: Input<{ principal: true }>): Promise<Response> {
  const number = accountNumberParam(request);
  const query = await parseListQuery(request, `statement:${number}`, principal.clientId, env.JWT_SECRET);
  const result = await ledgerOf(env, principal.clientId).statement({
    number,
    from: query.period.from,
    to: query.period.to,
    limit: query.limit,
    order: query.order,
    ...(query.position && { position: query.position }),
  });
  if (!result.ok) return operationResponse(result);
  const { account, ...page } = result.body;
  return json({
    account,
    period: { from: formatBrt(query.period.from), to: formatBrt(query.period.to), order: query.order },
    ...(await pageBody(
      page,
      query,
      principal.clientId,
      env.JWT_SECRET,
      ({ time: _t, seq: _s, ...item }) => item,
    )),
  });
}

export const getStatement = route(
  {
    method: 'get',
    path: '/account/{number}/statement',
    operationId: 'getStatement',
    summary: 'Account statement',
    description:
      "Every credit and debit of one of the client's accounts, filtered on when the entry hit " +
      "the account, oldest first by default. Data starts at the client's statement start date: an " +
      'earlier `from` answers 422 LIST_FROM_BEFORE_CUTOFF (the detail names the first available ' +
      'date).',
    tag: TAG,
    auth: 'client',
    parameters: [accountNumberParameter, ...listParameters],
    success: {
      '200': {
        description: 'One page of entries.',
        schema: Statement,
        examples: { page: example('One entry', statement) },
      },
    },
    errors: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND', 'LIST_ORDER_MISMATCH', 'LIST_FROM_BEFORE_CUTOFF'],
  },
  handleStatement,
);
