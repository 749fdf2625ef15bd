/** The staging Worker's router: every documented operation, the staging-only ones included. */
import { allowedMethodsOf, buildRouter } from '../api/router';
import { ALL_ROUTES } from './routes';

export const router = buildRouter(ALL_ROUTES);

/** Methods the staging router registers for a path, to tell 405 from 404. */
export function allowedMethods(pathname: string): string[] {
  return allowedMethodsOf(router, pathname);
}
