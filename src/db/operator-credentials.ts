/**
 * Who an operator credential names (docs/contract.md, Operators and the audit trail), shared by
 * the operator API's guard (src/http/admin-auth.ts) and the console: ADMIN_TOKEN (the break-glass
 * ADMIN), an operator's `opk_` token, or a verified Cloudflare Access assertion naming an
 * operator's email. Read from D1 on every call, with no cache, so a deleted operator stops at once.
 */
import { type Actor, BREAK_GLASS, OPERATOR_TOKEN } from '../domain/operators';
import { verifyAccessAssertion } from '../security/access-jwt';
import { constantTimeEqual, sha256Hex } from '../security/secrets';
import { operatorByEmail, operatorByTokenHash } from './operators';

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

/** The actor a bearer token names, or undefined. */
export async function actorOfToken(env: Env, token: string): Promise<Actor | undefined> {
  if (constantTimeEqual(token, env.ADMIN_TOKEN)) return BREAK_GLASS;
  if (!OPERATOR_TOKEN.test(token)) return undefined;
  // Looked up by its digest: the token itself is never stored nor compared.
  const digest = await sha256Hex(token);
  const row = await operatorByTokenHash(env, digest);
  if (!row || !constantTimeEqual(row.tokenHash, digest)) return undefined;
  return { kind: 'OPERATOR', role: row.role, operatorId: row.id, email: row.email };
}

export type AccessOutcome =
  | { ok: true; actor: Actor }
  | { ok: false; why: 'INVALID' }
  | { ok: false; why: 'NOT_AN_OPERATOR'; email: string };

/** The operator a Cf-Access-Jwt-Assertion names, with Access configured. */
export async function actorOfAssertion(env: Env, assertion: string, now: number): Promise<AccessOutcome> {
  const config = accessConfig(env);
  if (!config) return { ok: false, why: 'INVALID' };
  const verified = await verifyAccessAssertion(assertion, config, now);
  if (!verified.ok) return { ok: false, why: 'INVALID' };
  const row = await operatorByEmail(env, verified.email);
  if (!row) return { ok: false, why: 'NOT_AN_OPERATOR', email: verified.email };
  return { ok: true, actor: { kind: 'ACCESS', role: row.role, operatorId: row.id, email: row.email } };
}
