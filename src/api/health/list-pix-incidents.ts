/** GET /health/pix/incidents (docs/contract.md, PIX health): confirmed incidents of a window, by page. */
import * as v from 'valibot';
import { incidentsOverlapping } from '../../db/health';
import { parseInstant, toPublicIncident } from '../../health';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import type { ApiRequest } from '../../http/request-context';
import { example } from '../../openapi/examples';
import { parameter } from '../../openapi/parameters';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { read, visible } from './scope';
import { incident, PixIncident, TAG, Utc, unavailable } from './shared';

const IncidentPage = named(
  'IncidentPage',
  v.strictObject({
    items: v.array(PixIncident),
    total: v.pipe(v.number(), v.integer()),
    page: v.pipe(v.number(), v.integer()),
    pageSize: v.pipe(v.number(), v.integer()),
    from: Utc,
    to: Utc,
  }),
);

export type IncidentPageBody = v.InferOutput<typeof IncidentPage>;

const DAY_MS = 86_400_000;
const MAX_WINDOW_MS = 92 * DAY_MS;
const STATUSES = new Set(['ACTIVE', 'WORSENING', 'RECOVERING', 'RESOLVED']);

function one(request: ApiRequest, name: string): string | undefined {
  const v = request.query[name];
  return Array.isArray(v) ? String(v[0]) : v === undefined ? undefined : String(v);
}

function integerParam(
  text: string | undefined,
  fallback: number,
  code: 'invalid-page' | 'invalid-page-size',
  ok: (n: number) => boolean,
) {
  if (text === undefined) return fallback;
  const n = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!ok(n))
    throw new ProblemError(
      code,
      code === 'invalid-page'
        ? 'page must be an integer of at least 1'
        : 'pageSize must be an integer from 1 to 200',
    );
  return n;
}

async function handleListIncidents({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  const toText = one(request, 'to');
  const fromText = one(request, 'from');
  const to = toText === undefined ? Date.now() : parseInstant(toText);
  const from = fromText === undefined ? to - 7 * DAY_MS : parseInstant(fromText);
  if (Number.isNaN(to) || Number.isNaN(from))
    throw new ProblemError('invalid-window', 'from and to must be ISO 8601 UTC timestamps');
  if (from > to || to - from > MAX_WINDOW_MS)
    throw new ProblemError('invalid-window', 'from must not be after to, and the window is at most 92 days');
  const statusText = one(request, 'status');
  const statuses = statusText === undefined ? [] : statusText.split(',').map((s) => s.trim().toUpperCase());
  if (statuses.some((s) => !STATUSES.has(s))) {
    throw new ProblemError(
      'invalid-status',
      'status is a comma-separated list of ACTIVE, WORSENING, RECOVERING, RESOLVED',
    );
  }
  const page = integerParam(one(request, 'page'), 1, 'invalid-page', (n) => n >= 1);
  const pageSize = integerParam(one(request, 'pageSize'), 50, 'invalid-page-size', (n) => n >= 1 && n <= 200);
  const matches = await read(async () =>
    (await incidentsOverlapping(env, from, to, statuses)).filter(
      (r) => visible(principal)(r) && (r.resolvedAt === null || Date.parse(r.resolvedAt) >= from),
    ),
  );
  return json({
    items: matches.slice((page - 1) * pageSize, page * pageSize).map(toPublicIncident),
    total: matches.length,
    page,
    pageSize,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
  });
}

export const listPixIncidents = route(
  {
    method: 'get',
    path: '/health/pix/incidents',
    operationId: 'listPixIncidents',
    summary: 'List incidents',
    description:
      'Confirmed incidents in the client’s scope that overlap the window, most recent first, in one flat list.',
    tag: TAG,
    auth: 'client',
    parameters: [
      parameter(
        'from',
        'query',
        v.pipe(v.string(), v.isoTimestamp()),
        'ISO 8601 UTC; default `to` minus 7 days.',
      ),
      parameter(
        'to',
        'query',
        v.pipe(v.string(), v.isoTimestamp()),
        'ISO 8601 UTC; default now. At most 92 days after `from`.',
      ),
      parameter(
        'status',
        'query',
        v.string(),
        'Comma-separated ACTIVE, WORSENING, RECOVERING, RESOLVED; case-insensitive.',
      ),
      parameter('page', 'query', v.pipe(v.number(), v.integer(), v.minValue(1)), 'Page number, default 1.'),
      parameter(
        'pageSize',
        'query',
        v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)),
        'Page size 1..200, default 50.',
      ),
    ],
    success: {
      '200': {
        description: 'One page with the total over all pages and the effective window (UTC).',
        schema: IncidentPage,
        examples: {
          page: example('One incident', {
            items: [incident],
            total: 1,
            page: 1,
            pageSize: 50,
            from: '2026-11-14T13:20:00.000Z',
            to: '2026-11-21T13:20:00.000Z',
          }),
        },
      },
      ...unavailable,
    },
    errors: [
      'invalid-window',
      'invalid-status',
      'invalid-page',
      'invalid-page-size',
      'PIX_HEALTH_UNAVAILABLE',
    ],
  },
  handleListIncidents,
);
