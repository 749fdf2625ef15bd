/** The auth resource's operations; one file each. */
import type { Route } from '../route-table';
import { issueToken } from './issue-token';

export const authRoutes: Route[] = [issueToken];
