/**
 * PIX health API (docs/contract.md, PIX health): the picture of the moment and the incidents in
 * the client's scope. Reads come from D1, where the HealthAnalyzer publishes; a read failure is
 * 503 PIX_HEALTH_UNAVAILABLE with Retry-After, never a 500.
 */
import {
  incidentsOverlapping,
  incidentWithEvidence,
  openIncidents,
  pictureState,
  type StoredIncident,
} from '../../db/health';
import {
  healthPicture,
  type IncidentRecord,
  isVisibleTo,
  parseInstant,
  toPublicIncident,
} from '../../health';
import { authenticate, type Principal } from '../../http/auth';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';

const DAY_MS = 86_400_000;
const MAX_WINDOW_MS = 92 * DAY_MS;
const STATUSES = new Set(['ACTIVE', 'WORSENING', 'RECOVERING', 'RESOLVED']);

const scopeOf = (p: Principal) => ({ clientId: p.clientId, partnerIspbs: p.credentials.partners });
const visible = (p: Principal) => (r: StoredIncident) =>
  isVisibleTo(r as unknown as IncidentRecord, scopeOf(p));

/** Any failure to read the engine's output is a health-read failure, not a server error. */
async function read<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch {
    throw new ProblemError('PIX_HEALTH_UNAVAILABLE', 'PIX health could not be read; retry in a minute', {
      headers: { 'retry-after': '60' },
    });
  }
}

/**
 * The picture is polled (once a minute is plenty) by every client, and it changes only when a
 * 5-minute window closes: each isolate reads the open incidents from D1 at most once per
 * PICTURE_TTL_MS and scopes them per client from memory.
 */
export const PICTURE_TTL_MS = 5_000;
let platformPicture: { at: number; open: IncidentRecord[] | null } | undefined;

async function openIncidentsCached(env: Env, now: number): Promise<IncidentRecord[] | null> {
  if (platformPicture && now - platformPicture.at < PICTURE_TTL_MS) return platformPicture.open;
  const open = (await pictureState(env)) ? ((await openIncidents(env)) as unknown as IncidentRecord[]) : null;
  platformPicture = { at: now, open };
  return open;
}

export async function handleHealthPicture(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  const now = Date.now();
  const picture = await read(async () => {
    const open = await openIncidentsCached(env, now);
    return open === null ? undefined : healthPicture(open, scopeOf(principal), now);
  });
  return picture ? json(picture) : new Response(null, { status: 204 });
}

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

export async function handleListIncidents(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
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

export async function handleGetIncident(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const principal = await authenticate(request, env);
  let id: string;
  try {
    id = decodeURIComponent(String(request.params.id ?? ''));
  } catch {
    throw new ProblemError('PIX_INCIDENT_NOT_FOUND', 'No incident with this id in your scope');
  }
  if (id.trim() === '') throw new ProblemError('invalid-incident-id', 'The incident id must not be blank');
  const found = await read(() => incidentWithEvidence(env, id));
  if (!found || !visible(principal)(found.incident)) {
    throw new ProblemError('PIX_INCIDENT_NOT_FOUND', 'No incident with this id in your scope');
  }
  return json({ incident: toPublicIncident(found.incident), evidence: found.evidence });
}
