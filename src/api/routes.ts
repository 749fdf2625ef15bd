/**
 * The route table of the whole API: every resource's routes. The router (./router.ts) registers
 * exactly these, and the document (./document.ts) documents exactly their operations, so neither can
 * have a route the other lacks: checked here when the Worker loads.
 */
import { accountRoutes } from './account/routes';
import { adminRoutes } from './admin/routes';
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
import { sandboxRoutes } from './sandbox/routes';

export const ROUTES: readonly Route[] = [
  ...authRoutes,
  ...cashInRoutes,
  ...cashOutRoutes,
  ...cashOutBatchRoutes,
  ...healthRoutes,
  ...accountRoutes,
  ...sandboxRoutes,
  ...publicRoutes,
  ...adminRoutes,
  ...adminHealthRoutes,
  ...partnersRoutes,
];

const bound = new Set(ROUTES.map((r) => r.spec));
const unbound = OPERATIONS.filter((op) => !bound.has(op));
if (unbound.length > 0 || bound.size !== OPERATIONS.length)
  throw new Error(
    `route table: operations without a route: ${unbound.map((op) => op.operationId).join(', ')}`,
  );
