/**
 * GET /disputes (docs/contract.md, Disputes): the caller's Cash-Ins under a MED dispute, by when the
 * dispute opened, newest first unless `order=asc`; the other lists' period, limit and cursor rules.
 */
import { ledgerOf } from '../../../durable-objects/stubs';
import { DISPUTE_STATUSES } from '../../domain/cash-in';
import { ProblemError } from '../../http/errors';
import { jsonText } from '../../http/json';
import { type ListQuery, pageInput, pageText, parseListQuery } from '../../http/list-query';
import type { Input } from '../../http/pipeline';
import type { ApiRequest } from '../../http/request-context';
import { validationError } from '../../http/validation';
import { example, type Out } from '../../openapi/examples';
import { listParameters, parameter } from '../../openapi/parameters';
import { page } from '../../openapi/responses';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { CashIn, cashInDisputed, DisputeStatus } from './shared';

const DisputePage = named('DisputePage', page(CashIn));

const disputePage: Out<typeof DisputePage> = { items: [cashInDisputed] };

/** The query's `status`, and the list query; every malformed field named in one 400. */
async function parseDisputeQuery(request: ApiRequest, clientId: string, secret: string) {
  const errors: Record<string, string[]> = {};
  const raw = request.query.status;
  const status = raw === undefined ? undefined : String(raw);
  if (
    Array.isArray(raw) ||
    (status !== undefined && !(DISPUTE_STATUSES as readonly string[]).includes(status))
  )
    errors.status = [`status must be one of ${DISPUTE_STATUSES.join(', ')}, given once`];
  let query: ListQuery | undefined;
  try {
    query = await parseListQuery(request, `disputes:${status ?? ''}`, clientId, secret);
  } catch (error) {
    if (!(error instanceof ProblemError && error.extras.errors)) throw error;
    Object.assign(errors, error.extras.errors);
  }
  if (Object.keys(errors).length > 0 || !query) throw validationError(errors, 'Invalid query parameters');
  // Newest dispute first unless asked otherwise (a cursor carries its own order).
  if (request.query.order === undefined && request.query.cursor === undefined) query.order = 'desc';
  return { status, query };
}

async function handleListDisputes({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  const { status, query } = await parseDisputeQuery(request, principal.clientId, env.JWT_SECRET);
  const found = await ledgerOf(env, principal.clientId).listDisputes(pageInput(query), {
    ...(status !== undefined && { status }),
  });
  return jsonText(await pageText(found, query, principal.clientId, env.JWT_SECRET));
}

export const listDisputes = route(
  {
    method: 'get',
    path: '/disputes',
    operationId: 'listDisputes',
    summary: 'List Cash-Ins under a MED dispute',
    description:
      'Your Cash-Ins whose dispute opened in the period (`from`/`to` on `dispute.openedAt`), ' +
      'newest first unless `order=asc`, cursor-paginated like the other lists; each item as GET ' +
      '/cash-in/{id}. `status` keeps one dispute status.',
    tag: 'Cash-In',
    auth: 'client',
    parameters: [
      ...listParameters,
      parameter('status', 'query', DisputeStatus, 'Only disputes in this status.'),
    ],
    success: {
      '200': {
        description: 'One page; each item as GET /cash-in/{id}.',
        schema: DisputePage,
        examples: { page: example('Open disputes', disputePage) },
      },
    },
    errors: ['VALIDATION_ERROR', 'LIST_ORDER_MISMATCH'],
  },
  handleListDisputes,
);
