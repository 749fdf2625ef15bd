/**
 * Cursor pagination (docs/contract.md, Lists, cursors and periods) as keyset pagination over (time, seq). A
 * page fetched forward or backward is returned in the walk's order; one extra row tells whether more lie
 * beyond it.
 */
export type Order = 'asc' | 'desc';
export type Direction = 'next' | 'prev';

export interface Position {
  direction: Direction;
  /** Sort key of the item the cursor was cut at. */
  time: number;
  seq: number;
}

export interface PagePlan {
  /** SQL comparison against (time, seq) of the position, or none on the first page. */
  comparison: '>' | '<' | null;
  /** Order rows are read in. */
  scan: 'ASC' | 'DESC';
  /** Whether the rows read must be reversed into the walk's order. */
  reverse: boolean;
}

export function planPage(order: Order, position: Position | undefined): PagePlan {
  const forwardScan = order === 'asc' ? 'ASC' : 'DESC';
  if (!position) return { comparison: null, scan: forwardScan, reverse: false };
  const forward = position.direction === 'next';
  const ascending = (order === 'asc') === forward;
  return { comparison: ascending ? '>' : '<', scan: ascending ? 'ASC' : 'DESC', reverse: !forward };
}

export interface Keyed {
  time: number;
  seq: number;
}

export interface PageResult<T> {
  items: T[];
  next?: Position;
  previous?: Position;
}

/**
 * Turns the rows read (up to limit + 1, in scan order) into a page with its neighbours: more
 * rows beyond the limit mean a page further in the scan direction; the page we came from always
 * lies behind us.
 */
export function shapePage<T>(
  rows: (T & Keyed)[],
  limit: number,
  position: Position | undefined,
): PageResult<T & Keyed> {
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const forward = !position || position.direction === 'next';
  if (!forward) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const hasNext = forward ? more : position !== undefined;
  const hasPrevious = forward ? position !== undefined : more;
  return {
    items: page,
    ...(hasNext && last && { next: { direction: 'next' as const, time: last.time, seq: last.seq } }),
    ...(hasPrevious &&
      first && { previous: { direction: 'prev' as const, time: first.time, seq: first.seq } }),
  };
}
