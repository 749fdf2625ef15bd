/**
 * Account endpoints: the statement and the consolidated balance (docs/contract.md, Statement
 * and balance) and the rebalance operations (docs/contract.md, Rebalance).
 */

import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount } from '../../domain/money';
import { parseBound } from '../../domain/period';
import { ACCOUNT_NUMBER } from '../../domain/statement';
import { formatBrt } from '../../domain/time';
import { balanceBody, type RebalanceDirection } from '../../domain/wallet';
import { authenticate, requireDigitalSignature } from '../../http/auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { idempotencyKeyOf, requestFingerprint } from '../../http/idempotency';
import { json } from '../../http/json';
import { pageBody, parseListQuery } from '../../http/list-query';
import { operationResponse } from '../../http/respond';
import { parseWith, validationError } from '../../http/validation';
import { RebalanceSchema } from './schemas';

/** The `{number}` path parameter: letters, digits and hyphen, at most 32 characters (400 otherwise). */
export function accountNumberParam(request: ApiRequest): string {
  let number: string | undefined;
  try {
    number = decodeURIComponent(String(request.params.number ?? ''));
  } catch {
    number = undefined;
  }
  if (number === undefined || !ACCOUNT_NUMBER.test(number)) {
    throw validationError(
      { number: ['number must be letters, digits or hyphen, at most 32 characters'] },
      'Invalid account number',
    );
  }
  return number;
}

export async function handleStatement(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
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

export async function handleBalance(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const at = balanceInstant(request);
  const result = await ledgerOf(env, principal.clientId).balances(at);
  return operationResponse(result, (b) => balanceBody(b.asOf, b.accounts));
}

async function handleRebalance(
  request: ApiRequest,
  env: Env,
  direction: RebalanceDirection,
): Promise<Response> {
  const principal = await authenticate(request, env);
  const idempotencyKey = idempotencyKeyOf(request);
  const raw = await readJsonObject(request);
  const body = parseWith(RebalanceSchema, raw);
  await requireDigitalSignature(request, principal);
  // Sign first: a non-positive amount is not validated for decimals (RebalanceAmountSchema).
  if (body.amount <= 0) throw new ProblemError('INVALID_AMOUNT', 'amount must be greater than zero');
  const amountCents = centsFromAmount(body.amount) as number;
  const result = await ledgerOf(env, principal.clientId).rebalance({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    requestHash: await requestFingerprint(`POST /account/rebalance ${direction}`, '', raw),
    direction,
    amountCents,
    ...(body.ispb !== undefined && { ispb: body.ispb }),
  });
  return operationResponse(result);
}

export function handleTopUp(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  return handleRebalance(request, env, 'TOP_UP');
}

export function handleSweep(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  return handleRebalance(request, env, 'SWEEP');
}
