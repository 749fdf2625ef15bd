/** Query parameters of the operator's books views: unapplied receipts and daily reconciliation reports. */
import * as v from 'valibot';
import { parseBound } from '../../domain/period';
import { UNAPPLIED_STATUSES } from '../../domain/unapplied';
import { IspbSchema } from '../../schemas/common';

/** A period bound of the operator's lists: a São Paulo date or an ISO 8601 instant. */
export const bound = (name: 'from' | 'to') =>
  v.pipe(
    v.string(),
    v.check(
      (text) => parseBound(text, name) !== undefined,
      `${name} must be a date YYYY-MM-DD or an ISO 8601 timestamp`,
    ),
  );

export const limitMessage = 'limit must be an integer from 1 to 500';

/** `limit` and `cursor` of the operator's lists: 1 to 500 (default 50), a cursor as nextCursor gave it. */
export const limitQuery = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{1,4}$/, limitMessage),
    v.transform(Number),
    v.minValue(1, limitMessage),
    v.maxValue(500, limitMessage),
  ),
  '50',
);
export const cursorQuery = v.optional(
  v.pipe(v.string(), v.maxLength(512, 'cursor must be copied from nextCursor')),
);

/** GET /admin/unapplied. */
export const UnappliedQuerySchema = v.strictObject(
  {
    status: v.optional(
      v.picklist(UNAPPLIED_STATUSES, `status must be one of ${UNAPPLIED_STATUSES.join(', ')}`),
    ),
    ispb: v.optional(IspbSchema),
    from: v.optional(bound('from')),
    to: v.optional(bound('to')),
    limit: limitQuery,
    cursor: cursorQuery,
  },
  'unknown query parameter',
);

/** GET /admin/reconciliation. */
export const ReconciliationQuerySchema = v.strictObject(
  {
    date: v.pipe(
      v.string('date is required (YYYY-MM-DD, America/Sao_Paulo)'),
      v.isoDate('date must be a date YYYY-MM-DD'),
      v.check((d) => {
        const t = Date.parse(`${d}T00:00:00Z`);
        return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
      }, 'date must be a real calendar date'),
    ),
    ispb: v.optional(IspbSchema),
  },
  'unknown query parameter',
);
