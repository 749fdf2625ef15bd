/**
 * /admin/console: the operator's page. Its own small router, outside the API's: it speaks HTML and
 * form posts, not the JSON contract, and it authenticates by a cookie session (src/console/session.ts)
 * that a login form opens with the operator token. Every POST needs the same origin and the
 * session's CSRF token. Without ADMIN_TOKEN the console is closed, like the operator API.
 */
import { Router } from 'itty-router';
import { ledgerOf } from '../../durable-objects/stubs';
import { findClient } from '../db/clients';
import { readBodyWithin } from '../infra/body-limit';
import { log } from '../infra/log';
import { loginSourceBlocked, recordLoginFailure } from '../infra/login-failures';
import { constantTimeEqual } from '../security/secrets';
import { ASSETS } from './assets';
import { booksPage } from './books';
import { buildCharts } from './charts';
import { dashboardPage } from './dashboard';
import { clientPage, healthView, partnerNames, recentBatches, recentDeliveries } from './data';
import { openDisputes } from './disputes';
import { htmlResponse, loginPage, messagePage } from './html';
import {
  CONSOLE_PATH,
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
  redelivered: 'Delivery queued again: it is PENDING and goes out within seconds.',
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

/** A POST that is not from this console's own page, with this session's token, does nothing. */
async function checkedPost(
  request: Request,
  env: Env,
): Promise<{ session: Session; form: Record<string, string> } | Response> {
  if (!sameOrigin(request)) return htmlResponse(messagePage('Refused', 'Cross-origin request refused.'), 403);
  const session = await readSession(request, env.ADMIN_TOKEN as string, Date.now());
  if (!session) return redirect(CONSOLE_PATH);
  const form = await readForm(request);
  if (!form || !csrfMatches(session, form.csrf)) {
    return htmlResponse(messagePage('Refused', 'The form has expired; reload the page and try again.'), 403);
  }
  return { session, form };
}

async function dashboard(request: Request, env: Env, session: Session): Promise<Response> {
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
  const [deliveries, batches] = selected
    ? await Promise.all([recentDeliveries(env, selected.id), recentBatches(env, selected.id)])
    : [[], []];
  const notice = NOTICES[url.searchParams.get('notice') ?? ''];
  return htmlResponse(
    dashboardPage({
      csrf: session.csrf,
      clients,
      partnerNames: partnerNames(env, selected ? [...clients.items, selected] : clients.items),
      ...(before !== undefined && { clientsBefore: before }),
      ...(selected && { selected }),
      deliveries,
      batches,
      charts: buildCharts(health.series, health.incidents, health.names, health.from, health.to),
      health,
      ...(notice !== undefined && { notice }),
      disputes,
    }),
  );
}

const router = Router({ base: CONSOLE_PATH });

router
  .get('/', async (request: Request, env: Env) => {
    const session = await readSession(request, env.ADMIN_TOKEN as string, Date.now());
    return session ? dashboard(request, env, session) : htmlResponse(loginPage());
  })
  .post('/login', async (request: Request, env: Env) => {
    if (!sameOrigin(request))
      return htmlResponse(messagePage('Refused', 'Cross-origin request refused.'), 403);
    if (loginSourceBlocked(request))
      return htmlResponse(loginPage('Too many failed sign-ins from here; wait a minute.'), 429);
    const form = await readForm(request);
    if (!form || !constantTimeEqual(form.token ?? '', env.ADMIN_TOKEN as string)) {
      recordLoginFailure(request);
      log('warn', 'console sign-in refused', {});
      return htmlResponse(loginPage('That is not the operator token.'), 401);
    }
    const { cookie } = await newSession(env.ADMIN_TOKEN as string, Date.now());
    return redirect(CONSOLE_PATH, { 'set-cookie': sessionCookie(request, cookie, SESSION_MS / 1000) });
  })
  .post('/logout', async (request: Request, env: Env) => {
    const checked = await checkedPost(request, env);
    if (checked instanceof Response) return checked;
    return redirect(CONSOLE_PATH, { 'set-cookie': sessionCookie(request, '', 0) });
  })
  .post('/redeliver', async (request: Request, env: Env) => {
    const checked = await checkedPost(request, env);
    if (checked instanceof Response) return checked;
    const { clientId = '', eventId = '' } = checked.form;
    const back = (notice: string) =>
      redirect(`${CONSOLE_PATH}?client=${encodeURIComponent(clientId)}&notice=${notice}#deliveries`);
    // An unknown client must not bring a ClientLedger into existence.
    if (!(await findClient(env, clientId))) return back('not-found');
    const result = await ledgerOf(env, clientId).retryWebhookDelivery(eventId);
    if (result.ok) log('info', 'console redelivery', { clientId, eventId });
    return back(
      result.ok ? 'redelivered' : result.problem.code === 'NOT_FOUND' ? 'not-found' : 'not-retryable',
    );
  })
  .get('/books', async (request: Request, env: Env) => {
    const session = await readSession(request, env.ADMIN_TOKEN as string, Date.now());
    if (!session) return redirect(CONSOLE_PATH);
    return htmlResponse(await booksPage(env, new URL(request.url).searchParams.get('status')));
  })
  .get('/assets/:name', (request: Request & { params: Record<string, string> }) => {
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

export async function handleConsole(request: Request, env: Env): Promise<Response> {
  if (!env.ADMIN_TOKEN) {
    return htmlResponse(messagePage('Console closed', 'ADMIN_TOKEN is not set on this deployment.'), 503);
  }
  // `/admin/console` itself is the router's `/`.
  const url = new URL(request.url);
  if (url.pathname === CONSOLE_PATH) {
    url.pathname = `${CONSOLE_PATH}/`;
    return router.fetch(new Request(url, request), env);
  }
  return router.fetch(request, env);
}
