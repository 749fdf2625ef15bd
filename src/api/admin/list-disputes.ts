/**
 * GET /admin/disputes (docs/contract.md, Disputes): MED disputes across clients for the operator,
 * newest first, so the defenses due are seen in time.
 */
import * as v from 'valibot';
import { type DisputeCut, disputesPage } from '../../../durable-objects/all-disputes';
import { DISPUTE_STATUSES } from '../../domain/cash-in';
import { decodeCursor, encodeCursor } from '../../domain/cursor';
import { ISPB_PATTERN, ISPB_RULE, isIspb } from '../../domain/ispb';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import { parsePeriodQuery } from '../../http/list-query';
import type { Input } from '../../http/pipeline';
import type { ApiRequest } from '../../http/request-context';
import { validationError } from '../../http/validation';
import { example } from '../../openapi/examples';
import { parameter, periodParameters } from '../../openapi/parameters';
import { named } from '../../schemas/named';
import { CashIn, cashInDisputed, DisputeStatus } from '../cash-in/shared';
import { route } from '../route-table';
import { operator } from './shared';

const AdminDisputePage = named(
  'AdminDisputePage',
  v.object({
    items: v.array(v.object({ clientId: v.string(), cashIn: CashIn })),
    nextCursor: v.optional(v.pipe(v.string(), v.description('Send as `cursor` for the next (older) page.'))),
  }),
);

function one(request: ApiRequest, name: string, errors: Record<string, string[]>): string | undefined {
  const value = request.query[name];
  if (Array.isArray(value)) errors[name] = [`${name} must be given once`];
  return value === undefined || Array.isArray(value) ? undefined : String(value);
}

/**
 * The operator's cursors: MACed like the clients' (src/domain/cursor.ts) under their own subject, the
 * walk's filters and period baked in; the cut's client rides in the list name beside the filters.
 */
const CURSOR_SUBJECT = 'admin:disputes';
const walkOf = (filters: (string | undefined)[]) =>
  `admin-disputes:${filters.map((f) => f ?? '').join(':')}|`;

async function cursorOut(
  walk: string,
  period: { from: number; to: number },
  cut: DisputeCut,
  secret: string,
) {
  const position = { direction: 'next' as const, time: cut.time, seq: cut.seq };
  return encodeCursor(
    { list: walk + cut.clientId, order: 'desc', ...period, position },
    CURSOR_SUBJECT,
    secret,
  );
}

async function cursorIn(text: string, walk: string, period: { from: number; to: number }, secret: string) {
  const state = await decodeCursor(text, CURSOR_SUBJECT, secret);
  if (!state?.list.startsWith(walk) || state.order !== 'desc' || state.position.direction !== 'next')
    return undefined;
  if (state.from !== period.from || state.to !== period.to) return undefined;
  return { time: state.position.time, clientId: state.list.slice(walk.length), seq: state.position.seq };
}

async function handleListAdminDisputes({ request, env }: Input): Promise<Response> {
  const errors: Record<string, string[]> = {};
  let period: { from: number; to: number } | undefined;
  try {
    period = parsePeriodQuery(request);
  } catch (error) {
    if (!(error instanceof ProblemError && error.extras.errors)) throw error;
    Object.assign(errors, error.extras.errors);
  }
  const status = one(request, 'status', errors);
  if (status !== undefined && !(DISPUTE_STATUSES as readonly string[]).includes(status))
    errors.status = [`status must be one of ${DISPUTE_STATUSES.join(', ')}`];
  const clientId = one(request, 'clientId', errors);
  if (clientId !== undefined && !/^[0-9a-f-]{36}$/.test(clientId))
    errors.clientId = ['clientId must be a client id'];
  const ispb = one(request, 'ispb', errors);
  if (ispb !== undefined && !isIspb(ispb)) errors.ispb = [`ispb must be ${ISPB_RULE}`];
  const limitText = one(request, 'limit', errors);
  const limit = limitText === undefined ? 50 : Number(limitText);
  if (!/^\d{1,3}$/.test(limitText ?? '50') || limit < 1 || limit > 200)
    errors.limit = ['limit must be from 1 to 200'];
  const cursorText = one(request, 'cursor', errors);
  const walk = walkOf([status, clientId, ispb]);
  const after =
    cursorText === undefined || !period
      ? undefined
      : await cursorIn(cursorText, walk, period, env.JWT_SECRET);
  if (cursorText !== undefined && period && !after)
    errors.cursor = ['cursor is not valid for this list and its filters and period; copy it verbatim'];
  if (Object.keys(errors).length > 0 || !period) throw validationError(errors, 'Invalid query parameters');
  const page = await disputesPage(env, {
    ...period,
    limit,
    ...(status !== undefined && { status }),
    ...(clientId !== undefined && { clientId }),
    ...(ispb !== undefined && { ispb }),
    ...(after && { after }),
  });
  if (!page.next) return json({ items: page.items });
  return json({ items: page.items, nextCursor: await cursorOut(walk, period, page.next, env.JWT_SECRET) });
}

export const listAdminDisputes = route(
  operator({
    method: 'get',
    path: '/admin/disputes',
    operationId: 'listAdminDisputes',
    role: 'VIEWER',
    summary: 'List MED disputes across clients',
    description:
      'The newest `limit` disputes (1 to 200, default 50) opened in the period (`from`/`to` on ' +
      '`dispute.openedAt`), across every client or one (`clientId`), optionally of one `status` and one ' +
      'settling partner (`ispb`), whatever their age (archived Cash-Ins too). Each item: the client and ' +
      'the Cash-In as GET /cash-in/{id} (its `dispute.respondBy` is the deadline for the defense). ' +
      '`nextCursor`, when present, gives the next (older) page: send it as `cursor` with the same ' +
      'filters and period; a cursor altered, forged or of other filters answers 400 naming `cursor`.',
    parameters: [
      ...periodParameters,
      parameter('status', 'query', DisputeStatus, 'Only disputes in this status.'),
      parameter('clientId', 'query', v.string(), 'Only this client.'),
      parameter('ispb', 'query', v.pipe(v.string(), v.regex(ISPB_PATTERN)), 'Only this settling partner.'),
      parameter('cursor', 'query', v.string(), 'The `nextCursor` of the previous page, verbatim.'),
      parameter(
        'limit',
        'query',
        v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)), 50),
        'How many.',
      ),
    ],
    success: {
      '200': {
        description: 'Newest first.',
        schema: AdminDisputePage,
        examples: {
          open: example('One open dispute', {
            items: [{ clientId: '0b9e7c36-5f2a-4d8e-9a51-3c2f1e7d4b60', cashIn: cashInDisputed }],
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR'],
  }),
  handleListAdminDisputes,
);
