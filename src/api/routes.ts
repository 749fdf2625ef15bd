/**
 * The route table of the production API: every resource's production routes. The router
 * (./router.ts) registers exactly these; the document (./document.ts) documents them and the
 * staging-only operations, which only the staging entry routes (src/staging/routes.ts, which checks
 * that together they cover the document). An operation that is neither routed here nor staging-only
 * stops the Worker from loading: checked here when the Worker loads.
 */
import { accountRoutes } from './account/routes';
import { adminRoutes } from './admin/routes';
import { adminBooksRoutes } from './admin-books/routes';
import { adminHealthRoutes } from './admin-health/routes';
import { authRoutes } from './auth/routes';
import { cashInRoutes } from './cash-in/routes';
import { cashOutRoutes } from './cash-out/routes';
import { cashOutBatchRoutes } from './cash-out-batch/routes';
import { healthRoutes } from './health/routes';
import { OPERATIONS } from './operations';
import { partnersRoutes } from './partners/routes';
import { publicRoutes } from './public/routes';
import type { Route } from './route-table';

export const ROUTES: readonly Route[] = [
  ...authRoutes,
  ...cashInRoutes,
  ...cashOutRoutes,
  ...cashOutBatchRoutes,
  ...healthRoutes,
  ...accountRoutes,
  ...publicRoutes,
  ...adminRoutes,
  ...adminHealthRoutes,
  ...adminBooksRoutes,
  ...partnersRoutes,
];

const bound = new Set(ROUTES.map((r) => r.spec));
const unbound = OPERATIONS.filter((op) => !bound.has(op) && !op.stagingOnly);
if (unbound.length > 0 || bound.size !== ROUTES.length || ROUTES.some((r) => r.spec.stagingOnly))
  throw new Error(
    `route table: operations without a route: ${unbound.map((op) => op.operationId).join(', ')}`,
  );
