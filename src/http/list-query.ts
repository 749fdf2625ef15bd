/**
 * Query parameters of the cursor-paginated lists (docs/contract.md, Lists, cursors and periods): `from`/`to`
 * required, `limit` 1..1000 (default 50), `order` asc|desc (default asc), `cursor` opaque. Malformed values
 * are a 400 naming the field; an order other than the cursor's is 422 LIST_ORDER_MISMATCH.
 */
import { type CursorState, decodeCursor, encodeCursor } from '../domain/cursor';
import type { Order, PageResult, Position } from '../domain/pagination';
import { type Period, parsePeriod } from '../domain/period';
import { ProblemError } from './errors';
import type { ApiRequest } from './request-context';
import { validationError } from './validation';

export interface ListQuery {
  list: string;
  period: Period;
  limit: number;
  order: Order;
  position?: Position;
}

function single(request: ApiRequest, name: string, errors: Record<string, string[]>): string | undefined {
  const value = request.query[name];
  if (Array.isArray(value)) {
    errors[name] = [`${name} must be given once`];
    return undefined;
  }
  return value === undefined ? undefined : String(value);
}

export function parsePeriodQuery(request: ApiRequest): Period {
  const errors: Record<string, string[]> = {};
  const from = single(request, 'from', errors);
  const to = single(request, 'to', errors);
  const parsed = parsePeriod(from, to);
  if (!parsed.ok) Object.assign(errors, parsed.errors);
  if (Object.keys(errors).length > 0 || !parsed.ok) throw validationError(errors, 'Invalid query parameters');
  return parsed.period;
}

export async function parseListQuery(
  request: ApiRequest,
  list: string,
  clientId: string,
  secret: string,
): Promise<ListQuery> {
  const errors: Record<string, string[]> = {};
  let period: Period | undefined;
  try {
    period = parsePeriodQuery(request);
  } catch (error) {
    if (error instanceof ProblemError && error.extras.errors) Object.assign(errors, error.extras.errors);
    else throw error;
  }
  const limitText = single(request, 'limit', errors);
  let limit = 50;
  if (limitText !== undefined) {
    if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 1000) {
      errors.limit = ['limit must be an integer from 1 to 1000'];
    } else limit = Number(limitText);
  }
  const orderText = single(request, 'order', errors);
  if (orderText !== undefined && orderText !== 'asc' && orderText !== 'desc')
    errors.order = ['order must be asc or desc'];
  const cursorText = single(request, 'cursor', errors);
  let cursor: CursorState | undefined;
  if (cursorText !== undefined) {
    cursor = await decodeCursor(cursorText, clientId, secret);
    if (!cursor || cursor.list !== list)
      errors.cursor = ['cursor is not valid for this list; copy it verbatim'];
    else if (period && (cursor.from !== period.from || cursor.to !== period.to)) {
      errors.cursor = ['cursor belongs to another from/to; keep them identical across a walk'];
    }
  }
  if (Object.keys(errors).length > 0 || !period) throw validationError(errors, 'Invalid query parameters');
  const order = (orderText as Order | undefined) ?? cursor?.order ?? 'asc';
  if (cursor && cursor.order !== order) {
    throw new ProblemError(
      'LIST_ORDER_MISMATCH',
      `The cursor was issued for order=${cursor.order}; start a new walk to change it`,
    );
  }
  return { list, period, limit, order, ...(cursor && { position: cursor.position }) };
}

/** The page request a ledger list method takes. */
export function pageInput(query: ListQuery) {
  return {
    from: query.period.from,
    to: query.period.to,
    limit: query.limit,
    order: query.order,
    ...(query.position && { position: query.position }),
  };
}

/** Drops the sort key the ledger attached to each item. */
function withoutKey<T extends { time: number; seq: number }>({ time: _t, seq: _s, ...item }: T) {
  return item;
}

/** A page as the ledger sends it: its items' JSON texts joined by commas, and its neighbours. */
export interface PageText {
  items: string;
  next?: Position;
  previous?: Position;
}

/**
 * pageBody's JSON text for a page whose items are JSON text already (the ledger rendered them):
 * the same bytes `JSON.stringify(pageBody(...))` would give.
 */
export async function pageText(
  page: PageText,
  query: ListQuery,
  clientId: string,
  secret: string,
): Promise<string> {
  const keys: PageResult<{ time: number; seq: number }> = { items: [] };
  if (page.next) keys.next = page.next;
  if (page.previous) keys.previous = page.previous;
  const { items: _none, ...cursors } = await pageBody(keys, query, clientId, secret);
  const rest = JSON.stringify(cursors);
  return `{"items":[${page.items}]${rest === '{}' ? '' : `,${rest.slice(1, -1)}`}}`;
}

/** `{items, nextCursor?, previousCursor?}` with cursors that bake in this walk's order and period. */
export async function pageBody<T extends { time: number; seq: number }>(
  page: PageResult<T>,
  query: ListQuery,
  clientId: string,
  secret: string,
  present: (item: T) => unknown = withoutKey,
) {
  const cut = (position: Position) =>
    encodeCursor(
      { list: query.list, order: query.order, from: query.period.from, to: query.period.to, position },
      clientId,
      secret,
    );
  return {
    items: page.items.map(present),
    ...(page.next && { nextCursor: await cut(page.next) }),
    ...(page.previous && { previousCursor: await cut(page.previous) }),
  };
}
