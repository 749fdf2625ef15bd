/**
 * /admin/console: the operator's page. Its own small router, outside the API's: it speaks HTML and
 * form posts, not the JSON contract, and it authenticates by a cookie session (src/console/session.ts)
 * that a login form opens with an operator token or ADMIN_TOKEN, or that a valid Cloudflare Access
 * assertion opens by itself. Every page and action needs its role (CONSOLE_ROLES); an action
 * refused for its role, and every changing action, leaves one audit record. Every POST needs the
 * same origin and the session's CSRF token. Without ADMIN_TOKEN the console is closed, like the
 * operator API.
 */
import { Router } from 'itty-router';
import { ledgerOf } from '../../durable-objects/stubs';
import { appendAudit, auditRow } from '../db/audit';
import { findClient } from '../db/clients';
import { accessConfig, actorOfAssertion, actorOfToken } from '../db/operator-credentials';
import { operatorById } from '../db/operators';
import { type Actor, BREAK_GLASS, type Role, roleAllows } from '../domain/operators';
import { readBodyWithin } from '../infra/body-limit';
import { log } from '../infra/log';
import { reserveLoginFailure } from '../infra/login-failures';
import { ACCESS_HEADER } from '../security/access-jwt';
import { ASSETS } from './assets';
import { auditPage } from './audit';
import { booksPage } from './books';
import { buildCharts } from './charts';
import { dashboardPage } from './dashboard';
import {
  clientPage,
  healthView,
  olderDeliveriesOf,
  partnerNames,
  recentBatches,
  recentDeliveries,
  recentRecurrences,
} from './data';
import { openDisputes } from './disputes';
import { htmlResponse, loginPage, messagePage } from './html';
import {
  BREAK_GLASS_SUBJECT,
  CONSOLE_PATH,
  CONSOLE_ROLES,
  csrfMatches,
  newSession,
  readSession,
  SESSION_MS,
  type Session,
  sameOrigin,
  sessionCookie,
} from './session';

const MAX_FORM_BYTES = 4096;

const NOTICES: Record<string, string> = {
  redelivered:
    'Delivery queued again: a new round of attempts starts, so it shows PENDING, then IN_FLIGHT while it is sent, ' +
    "attempts count from 0 again, and the previous round's last error stays shown until the new round's first attempt ends.",
  'not-retryable': 'Only FAILED or GIVEN_UP deliveries can be redelivered.',
  'not-found': 'No such delivery for that client.',
};

const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } });

async function readForm(request: Request): Promise<Record<string, string> | undefined> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return undefined;
  // Counted as it arrives: a form past the cap is never buffered whole (it has no Content-Length
  // when chunked), and the sign-in form is open to anyone.
  const bytes = await readBodyWithin(request, MAX_FORM_BYTES);
  if (bytes === undefined) return undefined;
  return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(bytes)));
}

interface SignedIn {
  session: Session;
  actor: Actor;
  /** A session opened by this request (Cloudflare Access): its cookie goes with the answer. */
  cookie?: string;
}

/** Who the session names, read again now: a deleted operator's session ends at once. */
async function actorOfSession(env: Env, session: Session): Promise<Actor | undefined> {
  if (session.subject === BREAK_GLASS_SUBJECT) return BREAK_GLASS;
  const row = await operatorById(env, `op_${session.subject}`);
  return row && { kind: 'OPERATOR', role: row.role, operatorId: row.id, email: row.email };
}

const subjectOf = (actor: Actor) => actor.operatorId?.slice(3) ?? BREAK_GLASS_SUBJECT;

/** The signed-in operator: by the session cookie, else by a valid Cloudflare Access assertion. */
async function signedIn(request: Request, env: Env): Promise<SignedIn | undefined> {
  const now = Date.now();
  const session = await readSession(request, env.ADMIN_TOKEN as string, now);
  const actor = session && (await actorOfSession(env, session));
  if (session && actor) return { session, actor };
  const assertion = request.headers.get(ACCESS_HEADER);
  if (!assertion || !accessConfig(env)) return undefined;
  const outcome = await actorOfAssertion(env, assertion, now);
  if (!outcome.ok) return undefined;
  const opened = await newSession(env.ADMIN_TOKEN as string, now, subjectOf(outcome.actor));
  return { session: opened.session, actor: outcome.actor, cookie: opened.cookie };
}

const withSession = (request: Request, who: SignedIn, response: Response): Response => {
  if (who.cookie)
    response.headers.append('set-cookie', sessionCookie(request, who.cookie, SESSION_MS / 1000));
  return response;
};

const refusedForRole = (role: Role) =>
  htmlResponse(messagePage('Refused', `This needs the ${role} role or above.`), 403);

/** A POST that is not from this console's own page, with this session's token, does nothing. */
async function checkedPost(
  request: Request,
  env: Env,
): Promise<{ session: Session; actor: Actor; form: Record<string, string> } | Response> {
  if (!sameOrigin(request)) return htmlResponse(messagePage('Refused', 'Cross-origin request refused.'), 403);
  const who = await signedIn(request, env);
  // A session this very request opened has no form rendered for it yet.
  if (!who || who.cookie) return redirect(CONSOLE_PATH);
  const { session, actor } = who;
  const form = await readForm(request);
  if (!form || !csrfMatches(session, form.csrf)) {
    return htmlResponse(messagePage('Refused', 'The form has expired; reload the page and try again.'), 403);
  }
  return { session, actor, form };
}

async function dashboard(request: Request, env: Env, { session, actor }: SignedIn): Promise<Response> {
  const url = new URL(request.url);
  const before = url.searchParams.get('before') ?? undefined;
  const wanted = url.searchParams.get('client');
  const now = Date.now();
  const [clients, health, disputes] = await Promise.all([
    clientPage(env, before),
    healthView(env, now),
    openDisputes(env, now),
  ]);
  const selected =
    wanted === null
      ? clients.items[0]
      : (clients.items.find((c) => c.id === wanted) ?? (await findClient(env, wanted)));
  const older = olderDeliveriesOf(url.searchParams);
  const [deliveries, batches, recurrences] = selected
    ? await Promise.all([
        recentDeliveries(env, selected.id, older),
        recentBatches(env, selected.id),
        recentRecurrences(env, selected.id),
      ])
    : [{ items: [], older: {} }, [], []];
  const notice = NOTICES[url.searchParams.get('notice') ?? ''];
  return htmlResponse(
    dashboardPage({
      csrf: session.csrf,
      actor,
      clients,
      partnerNames: partnerNames(env, selected ? [...clients.items, selected] : clients.items),
      ...(before !== undefined && { clientsBefore: before }),
      ...(selected && { selected }),
      deliveries: deliveries.items,
      olderDeliveryCursors: deliveries.older,
      ...(older && { olderDeliveries: older }),
      batches,
      recurrences,
      charts: buildCharts(health.series, health.incidents, health.names, health.from, health.to),
      health,
      ...(notice !== undefined && { notice }),
      disputes,
    }),
  );
}

type Args = [Env, string];
const router = Router<Request & { params: Record<string, string> }, Args>({ base: CONSOLE_PATH });

router
  .get('/', async (request, env) => {
    const who = await signedIn(request, env);
    return who ? withSession(request, who, await dashboard(request, env, who)) : htmlResponse(loginPage());
  })
  .post('/login', async (request, env) => {
    if (!sameOrigin(request))
      return htmlResponse(messagePage('Refused', 'Cross-origin request refused.'), 403);
    // Counted as a failure before the form is awaited, so a concurrent burst is counted exactly.
    const attempt = reserveLoginFailure(request);
    if ('blockedMs' in attempt)
      return htmlResponse(loginPage('Too many failed sign-ins from here; wait a minute.'), 429);
    const form = await readForm(request);
    const actor = form ? await actorOfToken(env, form.token ?? '') : undefined;
    if (!actor) {
      log('warn', 'console sign-in refused', {});
      return htmlResponse(loginPage('That is not an operator token.'), 401);
    }
    attempt.succeeded();
    const { cookie } = await newSession(env.ADMIN_TOKEN as string, Date.now(), subjectOf(actor));
    return redirect(CONSOLE_PATH, { 'set-cookie': sessionCookie(request, cookie, SESSION_MS / 1000) });
  })
  .post('/logout', async (request, env) => {
    const checked = await checkedPost(request, env);
    if (checked instanceof Response) return checked;
    return redirect(CONSOLE_PATH, { 'set-cookie': sessionCookie(request, '', 0) });
  })
  .post('/redeliver', async (request, env, requestId) => {
    const checked = await checkedPost(request, env);
    if (checked instanceof Response) return checked;
    const { clientId = '', eventId = '' } = checked.form;
    const target = `/admin/clients/${clientId}/webhook-deliveries/${eventId}`;
    const record = (result: string) =>
      appendAudit(env, auditRow(requestId, checked.actor, 'console.redeliver', target, result));
    if (!roleAllows(checked.actor.role, CONSOLE_ROLES.redeliver)) {
      await record('FORBIDDEN');
      return refusedForRole(CONSOLE_ROLES.redeliver);
    }
    const back = (notice: string) =>
      redirect(`${CONSOLE_PATH}?client=${encodeURIComponent(clientId)}&notice=${notice}#deliveries`);
    // An unknown client must not bring a ClientLedger into existence.
    if (!(await findClient(env, clientId))) {
      await record('NOT_FOUND');
      return back('not-found');
    }
    // A redelivery and its audit record are one ClientLedger transaction; a refusal is recorded here.
    const done = auditRow(requestId, checked.actor, 'console.redeliver', target, 'OK', {
      after: { status: 'PENDING' },
    });
    const result = await ledgerOf(env, clientId).retryWebhookDelivery(eventId, done);
    if (!result.ok) await record(result.problem.code);
    if (result.ok) log('info', 'console redelivery', { clientId, eventId });
    return back(
      result.ok ? 'redelivered' : result.problem.code === 'NOT_FOUND' ? 'not-found' : 'not-retryable',
    );
  })
  .get('/books', async (request, env) => {
    const who = await signedIn(request, env);
    if (!who) return redirect(CONSOLE_PATH);
    const page = await booksPage(env, new URL(request.url).searchParams.get('status'), who.actor);
    return withSession(request, who, htmlResponse(page));
  })
  .get('/audit', async (request, env) => {
    const who = await signedIn(request, env);
    if (!who) return redirect(CONSOLE_PATH);
    return withSession(
      request,
      who,
      htmlResponse(await auditPage(env, new URL(request.url).searchParams, who.actor)),
    );
  })
  .get('/assets/:name', (request) => {
    const asset = ASSETS[request.params.name ?? ''];
    if (!asset) return htmlResponse(messagePage('Not found', 'No such file.'), 404);
    return new Response(asset.body, {
      headers: {
        'content-type': asset.type,
        'cache-control': 'public, max-age=3600',
        'x-content-type-options': 'nosniff',
      },
    });
  })
  .all('*', () => htmlResponse(messagePage('Not found', 'No such console page.'), 404));

export function isConsolePath(pathname: string): boolean {
  return pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`);
}

export async function handleConsole(request: Request, env: Env, requestId: string): Promise<Response> {
  if (!env.ADMIN_TOKEN) {
    return htmlResponse(messagePage('Console closed', 'ADMIN_TOKEN is not set on this deployment.'), 503);
  }
  // `/admin/console` itself is the router's `/`.
  const url = new URL(request.url);
  if (url.pathname === CONSOLE_PATH) {
    url.pathname = `${CONSOLE_PATH}/`;
    return router.fetch(new Request(url, request), env, requestId);
  }
  return router.fetch(request, env, requestId);
}
