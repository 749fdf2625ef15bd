/** HTML building blocks of the console: escaping, the page frame and its security headers. */
import type { Actor } from '../domain/operators';
import { brtText } from './format';
import { CONSOLE_PATH } from './session';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Everything that came from data (client names, URLs, errors) goes through here. */
export const esc = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/**
 * Every timestamp the console shows, in its one style (`28/11/2026 22:35:00 BRT`, as the plots' legend
 * reads), whatever zone the data came in (operator and health views are UTC); the instant itself in
 * `datetime` (UTC) for anyone who copies it. Empty for no value.
 */
export function brtTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return esc(value);
  return `<time datetime="${new Date(ms).toISOString()}">${brtText(ms)}</time>`;
}

/** JSON inside <script type="application/json">: `<` escaped so no `</script>` can end it early. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** No inline script or style anywhere: the page works under a CSP that allows only its own files. */
const SECURITY_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // Not no-referrer: with it, browsers send `Origin: null` on the console's own form posts.
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

export function htmlResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, ...headers } });
}

/** Who is signed in, as the header shows it. */
export function whoText(actor: Actor): string {
  const who = actor.kind === 'ADMIN_TOKEN' ? 'ADMIN_TOKEN (break-glass)' : (actor.email ?? '');
  return `<span class="who" data-role="${esc(actor.role)}">${esc(who)} · ${esc(actor.role)}</span>`;
}

/** The charts' script and style, on the pages that draw charts. */
const chartAssets = (assets: string): string =>
  `<link rel="stylesheet" href="${assets}/uplot.css">\n<script src="${assets}/uplot.js" defer></script>\n` +
  `<script src="${assets}/console.js" defer></script>`;

export function frame(
  title: string,
  main: string,
  options: { charts?: boolean; actor?: Actor } = {},
): string {
  const assets = `${CONSOLE_PATH}/assets`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · ConnectPSP console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}/console.css">
${options.charts ? chartAssets(assets) : ''}
</head>
<body>
<header class="top"><span class="brand">ConnectPSP</span> <span class="muted">operator console</span> <a href="${CONSOLE_PATH}/books">Books</a>${
    options.actor ? ` <a href="${CONSOLE_PATH}/audit">Audit trail</a> ${whoText(options.actor)}` : ''
  }</header>
<main>
${main}
</main>
</body>
</html>`;
}

export function loginPage(message?: string): string {
  return frame(
    'Sign in',
    `<section class="card narrow">
<h1>Sign in</h1>
<p class="muted">Use your operator token (<code>opk_…</code>), or <code>ADMIN_TOKEN</code> to break glass.</p>
${message ? `<p class="error" role="alert">${esc(message)}</p>` : ''}
<form method="post" action="${CONSOLE_PATH}/login">
<input type="hidden" name="username" value="operator" autocomplete="username">
<label for="token">Operator token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</section>`,
  );
}

export function messagePage(title: string, message: string): string {
  return frame(title, `<section class="card narrow"><h1>${esc(title)}</h1><p>${esc(message)}</p></section>`);
}
