/**
 * The operator's view of the books against the banks: unapplied receipts (money no Cash-In could
 * take, and its return) and the daily reconciliation reports. D1 only: no client's object is woken.
 */
import { findReport } from '../../db/reconciliation';
import { listUnapplied } from '../../db/unapplied';
import { decodeCursor, encodeCursor } from '../../domain/cursor';
import { parseBound } from '../../domain/period';
import { unappliedView } from '../../domain/unapplied';
import { requireOperator } from '../../http/admin-auth';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import { parseWith, validationError } from '../../http/validation';
import { declaredPartners } from '../../partners/config';
import { ReconciliationQuerySchema, UnappliedQuerySchema } from './schemas';

/** Cursors of this list are bound to the operator, not to a client. */
const CURSOR_OWNER = 'operator:unapplied';

function queryObject(request: ApiRequest): Record<string, unknown> {
  return { ...request.query };
}

export async function handleListUnapplied(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireOperator(request, env);
  const query = parseWith(UnappliedQuerySchema, queryObject(request));
  const from = query.from === undefined ? undefined : parseBound(query.from, 'from');
  const to = query.to === undefined ? undefined : parseBound(query.to, 'to');
  const walk = { list: 'unapplied', order: 'desc' as const, from: from ?? 0, to: to ?? 0 };
  let after: { time: number; seq: number } | undefined;
  if (query.cursor !== undefined) {
    const cursor = await decodeCursor(query.cursor, CURSOR_OWNER, env.JWT_SECRET);
    if (!cursor || cursor.list !== walk.list || cursor.from !== walk.from || cursor.to !== walk.to)
      throw validationError({ cursor: ['cursor is not valid for this list and from/to; copy it verbatim'] });
    after = cursor.position;
  }
  const page = await listUnapplied(
    env,
    {
      ...(query.status !== undefined && { status: query.status }),
      ...(query.ispb !== undefined && { ispb: query.ispb }),
      ...(from !== undefined && { from }),
      ...(to !== undefined && { to }),
    },
    query.limit,
    after,
  );
  const nextCursor = page.next
    ? await encodeCursor(
        { ...walk, position: { direction: 'next', ...page.next } },
        CURSOR_OWNER,
        env.JWT_SECRET,
      )
    : null;
  return json({ items: page.items.map(unappliedView), nextCursor });
}

export async function handleGetReconciliation(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireOperator(request, env);
  const query = parseWith(ReconciliationQuerySchema, queryObject(request));
  const real = declaredPartners(env).filter((p) => p.kind === 'bcb-api-pix');
  let ispb = query.ispb;
  if (ispb === undefined) {
    if (real.length !== 1)
      throw validationError({ ispb: ['ispb is required: name the partner (several or none are declared)'] });
    ispb = real[0]?.ispb as string;
  }
  const kept = await findReport(env, query.date, ispb);
  if (!kept)
    throw new ProblemError('NOT_FOUND', `No reconciliation of partner ${ispb} for ${query.date} yet`);
  return json(kept.report);
}
