/**
 * Who is asking, on /admin and the console (docs/contract.md, Operators and the audit trail):
 * `Authorization: Bearer` ADMIN_TOKEN (the break-glass ADMIN) or an operator's `opk_` token, or,
 * with ACCESS_TEAM_DOMAIN and ACCESS_AUD set, a verified Cloudflare Access assertion naming an
 * operator's email. The operator is read from D1 on every request, so a deleted operator's token
 * stops at once. Closed (503) while ADMIN_TOKEN is unset.
 */
import { operatorByEmail, operatorByTokenHash } from '../db/operators';
import { type Actor, BREAK_GLASS, OPERATOR_TOKEN } from '../domain/operators';
import { ACCESS_HEADER, verifyAccessAssertion } from '../security/access-jwt';
import { constantTimeEqual, sha256Hex } from '../security/secrets';
import { ProblemError } from './errors';

interface AccessEnv {
  ACCESS_TEAM_DOMAIN?: unknown;
  ACCESS_AUD?: unknown;
}

/** The Access application's team and audience, when both are configured. */
export function accessConfig(env: Env): { teamDomain: string; audience: string } | undefined {
  const { ACCESS_TEAM_DOMAIN: teamDomain, ACCESS_AUD: audience } = env as Env & AccessEnv;
  return typeof teamDomain === 'string' &&
    teamDomain !== '' &&
    typeof audience === 'string' &&
    audience !== ''
    ? { teamDomain, audience }
    : undefined;
}

/** The actor an operator token names, or undefined. */
export async function actorOfToken(env: Env, token: string): Promise<Actor | undefined> {
  if (constantTimeEqual(token, env.ADMIN_TOKEN)) return BREAK_GLASS;
  if (!OPERATOR_TOKEN.test(token)) return undefined;
  // Looked up by its digest: what is compared is never the token itself.
  const digest = await sha256Hex(token);
  const row = await operatorByTokenHash(env, digest);
  if (!row || !constantTimeEqual(row.tokenHash, digest)) return undefined;
  return { kind: 'OPERATOR', role: row.role, operatorId: row.id, email: row.email };
}

/** The operator a valid Access assertion names; 401 for a bad assertion, 403 for an unknown email. */
async function actorOfAccess(env: Env, assertion: string): Promise<Actor> {
  const config = accessConfig(env) as { teamDomain: string; audience: string };
  const verified = await verifyAccessAssertion(assertion, config, Date.now());
  if (!verified.ok) throw new ProblemError('UNAUTHORIZED', 'The Cloudflare Access assertion is not valid');
  const row = await operatorByEmail(env, verified.email);
  if (!row) throw new ProblemError('FORBIDDEN', 'The Cloudflare Access identity is not an operator');
  return { kind: 'ACCESS', role: row.role, operatorId: row.id, email: row.email };
}

/** The request's actor, or a thrown 503 / 401 / 403. */
export async function authenticateOperator(request: Request, env: Env): Promise<Actor> {
  if (!env.ADMIN_TOKEN) throw new ProblemError('SERVICE_UNAVAILABLE', 'The operator API is not configured');
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (match) {
    const actor = await actorOfToken(env, match[1] as string);
    if (actor) return actor;
  } else {
    const assertion = request.headers.get(ACCESS_HEADER);
    if (assertion && accessConfig(env)) return actorOfAccess(env, assertion);
  }
  throw new ProblemError('UNAUTHORIZED', 'A valid operator token is required');
}

/** The break-glass token alone: the staging bench's seeding, outside the route table. */
export function requireOperator(request: Request, env: Env): void {
  if (!env.ADMIN_TOKEN) throw new ProblemError('SERVICE_UNAVAILABLE', 'The operator API is not configured');
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match || !constantTimeEqual(match[1] as string, env.ADMIN_TOKEN)) {
    throw new ProblemError('UNAUTHORIZED', 'A valid operator token is required');
  }
}
