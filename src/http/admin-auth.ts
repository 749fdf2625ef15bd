/**
 * Who is asking, on /admin (docs/contract.md, Operators and the audit trail): `Authorization:
 * Bearer` ADMIN_TOKEN or an operator's token, or, with Access configured and no Authorization, a
 * Cloudflare Access assertion. Closed (503) while ADMIN_TOKEN is unset.
 */
import { accessConfig, actorOfAssertion, actorOfToken } from '../db/operator-credentials';
import type { Actor } from '../domain/operators';
import { ACCESS_HEADER } from '../security/access-jwt';
import { constantTimeEqual } from '../security/secrets';
import { ProblemError } from './errors';

const bearer = (request: Request) =>
  /^Bearer +(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];

/** A valid Access assertion whose email is no operator: a 403 refusal the guard records under that email. */
export class UnknownAccessIdentity extends ProblemError {
  constructor(readonly email: string) {
    super('FORBIDDEN', 'The Cloudflare Access identity is not an operator');
  }
}

/** The request's actor, or a thrown 503 / 401 / 403. */
export async function authenticateOperator(request: Request, env: Env): Promise<Actor> {
  if (!env.ADMIN_TOKEN) throw new ProblemError('SERVICE_UNAVAILABLE', 'The operator API is not configured');
  const token = bearer(request);
  const assertion = request.headers.get(ACCESS_HEADER);
  if (token === undefined && assertion && accessConfig(env)) {
    const outcome = await actorOfAssertion(env, assertion, Date.now());
    if (outcome.ok) return outcome.actor;
    if (outcome.why === 'NOT_AN_OPERATOR') throw new UnknownAccessIdentity(outcome.email);
    throw new ProblemError('UNAUTHORIZED', 'The Cloudflare Access assertion is not valid');
  }
  const actor = token === undefined ? undefined : await actorOfToken(env, token);
  if (!actor) throw new ProblemError('UNAUTHORIZED', 'A valid operator token is required');
  return actor;
}

/** The break-glass token alone: the staging bench's seeding, outside the route table. */
export function requireOperator(request: Request, env: Env): void {
  if (!env.ADMIN_TOKEN) throw new ProblemError('SERVICE_UNAVAILABLE', 'The operator API is not configured');
  const token = bearer(request);
  if (token === undefined || !constantTimeEqual(token, env.ADMIN_TOKEN)) {
    throw new ProblemError('UNAUTHORIZED', 'A valid operator token is required');
  }
}
