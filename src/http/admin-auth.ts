/** Operator authentication: `Authorization: Bearer <ADMIN_TOKEN>`; closed (503) when unset. */
import { constantTimeEqual } from '../security/secrets';
import { ProblemError } from './errors';

export function requireOperator(request: Request, env: Env): void {
  if (!env.ADMIN_TOKEN) throw new ProblemError('SERVICE_UNAVAILABLE', 'The operator API is not configured');
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match || !constantTimeEqual(match[1] as string, env.ADMIN_TOKEN)) {
    throw new ProblemError('UNAUTHORIZED', 'A valid operator token is required');
  }
}
