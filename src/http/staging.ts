/** Sandbox and fault-injection routes exist only outside production (decisions §1). */
import { ProblemError } from './errors';

export function requireStaging(request: Request, env: Env): void {
  if (env.ENVIRONMENT === 'production') {
    const { pathname } = new URL(request.url);
    throw new ProblemError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
  }
}
