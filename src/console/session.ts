/**
 * Console sessions without server state: the cookie is `expiry.nonce.mac`, the MAC keyed by a key
 * derived from ADMIN_TOKEN, so rotating the token ends every session. The nonce's second half names
 * who signed in (an operator's id digits, or zeros for ADMIN_TOKEN), so the MAC binds the session to
 * that person, whose operator row is read again on every request. The CSRF token is a second MAC
 * of the session's nonce (a synchronizer token bound to the session): a page can only carry it if it
 * was rendered for that session, and it never sits in a cookie.
 */

import type { Role } from '../domain/operators';
import { toHex as hex } from '../security/encoding';
import { constantTimeEqual, hmacSha256, randomBytes } from '../security/secrets';

export const SESSION_COOKIE = 'connectpsp_console';
export const SESSION_MS = 8 * 60 * 60 * 1000;
export const CONSOLE_PATH = '/admin/console';

/**
 * The console's actions and pages, each with the least role it needs (docs/contract.md, Operators
 * and the audit trail): the router checks it, the page hides what the role cannot do, and
 * test/console/roles.test.ts walks every entry for every role.
 */
export const CONSOLE_ROLES = {
  overview: 'VIEWER',
  books: 'VIEWER',
  audit: 'VIEWER',
  redeliver: 'OPERATOR',
} as const satisfies Record<string, Role>;

/** The session key: never the token itself, so a leaked MAC says nothing about ADMIN_TOKEN. */
async function sessionKey(adminToken: string): Promise<string> {
  return hex(await hmacSha256(adminToken, 'connectpsp console session v1'));
}

async function mac(adminToken: string, message: string): Promise<string> {
  return hex(await hmacSha256(await sessionKey(adminToken), message));
}

/** The subject of a session opened with ADMIN_TOKEN. */
export const BREAK_GLASS_SUBJECT = '0'.repeat(16);

export interface Session {
  nonce: string;
  /** BREAK_GLASS_SUBJECT, or the 16 hex digits of an operator's id (`op_<subject>`). */
  subject: string;
  expiresAt: number;
  csrf: string;
}

export async function newSession(
  adminToken: string,
  now: number,
  subject: string = BREAK_GLASS_SUBJECT,
): Promise<{ cookie: string; session: Session }> {
  if (!/^[0-9a-f]{16}$/.test(subject)) throw new Error('console session: bad subject');
  const nonce = `${hex(randomBytes(8))}${subject}`;
  const expiresAt = now + SESSION_MS;
  const payload = `${expiresAt}.${nonce}`;
  const cookie = `${payload}.${await mac(adminToken, payload)}`;
  return { cookie, session: { nonce, subject, expiresAt, csrf: await mac(adminToken, `csrf.${nonce}`) } };
}

function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** The request's valid, unexpired session, or undefined. */
export async function readSession(
  request: Request,
  adminToken: string,
  now: number,
): Promise<Session | undefined> {
  const value = cookieValue(request, SESSION_COOKIE);
  const match = value ? /^(\d{13})\.([0-9a-f]{32})\.([0-9a-f]{64})$/.exec(value) : null;
  if (!match) return undefined;
  const [, expiry, nonce, given] = match as unknown as [string, string, string, string];
  if (!constantTimeEqual(given, await mac(adminToken, `${expiry}.${nonce}`))) return undefined;
  const expiresAt = Number(expiry);
  if (expiresAt <= now) return undefined;
  return { nonce, subject: nonce.slice(16), expiresAt, csrf: await mac(adminToken, `csrf.${nonce}`) };
}

export function csrfMatches(session: Session, given: unknown): boolean {
  return typeof given === 'string' && constantTimeEqual(given, session.csrf);
}

/** HttpOnly, SameSite=Strict, scoped to the console; Secure whenever the page came over https. */
export function sessionCookie(request: Request, value: string, maxAgeSeconds: number): string {
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

/** A POST from another origin is refused before anything else (browsers always send Origin on POST). */
export function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return false;
  const url = new URL(request.url);
  return origin === url.origin || origin === `${url.protocol}//${request.headers.get('host') ?? url.host}`;
}
