/** GET /recurrences (docs/contract.md, Pix Automático): the client's recurrences, newest first. */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { parseWith } from '../../http/validation';
import { example } from '../../openapi/examples';
import { parameter } from '../../openapi/parameters';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { Recurrence, recurrenceApproved, TAG } from './shared';

const LIMIT = 'limit must be an integer from 1 to 100';
const ListRecurrencesQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.string(LIMIT),
      v.regex(/^\d{1,3}$/, LIMIT),
      v.transform(Number),
      v.minValue(1, LIMIT),
      v.maxValue(100, LIMIT),
    ),
    '20',
  ),
  cursor: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'cursor must be copied from nextCursor'), v.transform(Number)),
  ),
});

/** GET /recurrences 200. */
const RecurrencePage = named(
  'RecurrencePage',
  v.object({
    items: v.array(Recurrence),
    nextCursor: v.optional(
      v.pipe(v.string(), v.description('Give it as `cursor` for the next (older) page.')),
    ),
  }),
);

export type RecurrencePageBody = v.InferOutput<typeof RecurrencePage>;

async function handleListRecurrences({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  const query = parseWith(ListRecurrencesQuery, { ...request.query });
  const result = await ledgerOf(env, principal.clientId).recurrence({
    op: 'list',
    limit: query.limit,
    ...(query.cursor !== undefined && { before: query.cursor }),
  });
  return operationResponse(result, (page) => {
    const { items, nextBefore } = page as { items: unknown[]; nextBefore?: number };
    return { items, ...(nextBefore !== undefined && { nextCursor: String(nextBefore) }) };
  });
}

export const listRecurrences = route(
  {
    method: 'get',
    path: '/recurrences',
    operationId: 'listRecurrences',
    summary: 'List recurrences',
    description: 'Newest first, `limit` per page (default 20, at most 100); `nextCursor` continues.',
    tag: TAG,
    auth: 'client',
    parameters: [
      parameter(
        'limit',
        'query',
        v.pipe(v.string(), v.regex(/^\d{1,3}$/)),
        'Items per page, 1 to 100 (default 20).',
        false,
      ),
      parameter(
        'cursor',
        'query',
        v.pipe(v.string(), v.regex(/^\d{1,15}$/)),
        'The `nextCursor` of the previous page.',
        false,
      ),
    ],
    success: {
      '200': {
        description: 'One page.',
        schema: RecurrencePage,
        examples: { page: example('One approved recurrence', { items: [recurrenceApproved] }) },
      },
    },
    errors: ['VALIDATION_ERROR'],
  },
  handleListRecurrences,
);
