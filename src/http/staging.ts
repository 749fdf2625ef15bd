/** Sandbox and fault-injection routes exist only under ENVIRONMENT=staging (decisions §1, §5). */
import { isStaging } from '../config';
import { ProblemError } from './errors';

export function requireStaging(request: Request, env: Env): void {
  if (!isStaging(env)) {
    const { pathname } = new URL(request.url);
    throw new ProblemError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
  }
}
