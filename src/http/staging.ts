/**
 * Sandbox and fault-injection routes exist only under ENVIRONMENT=staging (docs/contract.md, Environments and
 * configuration).
 */
import { isStaging } from '../config';
import { ProblemError } from './errors';

export function requireStaging(request: Request, env: Env): void {
  if (!isStaging(env)) {
    const { pathname } = new URL(request.url);
    throw new ProblemError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
  }
}
