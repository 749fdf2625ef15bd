/**
 * The staging entry's route table: production's (src/api/routes.ts) with the staging-only
 * operations bound to their handlers: the sandbox, fault injection, the simulated open-finance
 * consent and closing the health analyzer's windows now. Together they route every documented
 * operation: checked here when the staging Worker loads. Their handlers still answer 404 outside
 * ENVIRONMENT=staging.
 */
import { adminStagingRoutes } from '../api/admin/routes-staging';
import { adminHealthStagingRoutes } from '../api/admin-health/routes-staging';
import { publicStagingRoutes } from '../api/public/routes-staging';
import type { Route } from '../api/route-table';
import { OPERATIONS, ROUTES } from '../api/routes';
import { sandboxRoutes } from '../api/sandbox/routes';

export const STAGING_ROUTES: readonly Route[] = [
  ...sandboxRoutes,
  ...publicStagingRoutes,
  ...adminStagingRoutes,
  ...adminHealthStagingRoutes,
];

/** Every route of the staging Worker, in the document's order. */
export const ALL_ROUTES: readonly Route[] = (() => {
  const bySpec = new Map([...ROUTES, ...STAGING_ROUTES].map((r) => [r.spec, r]));
  const missing = OPERATIONS.filter((op) => !bySpec.has(op));
  const routed = ROUTES.length + STAGING_ROUTES.length;
  if (missing.length > 0 || bySpec.size !== OPERATIONS.length || routed !== OPERATIONS.length)
    throw new Error(
      `staging route table: every operation routed once; without a route: ${missing.map((op) => op.operationId).join(', ')}`,
    );
  return OPERATIONS.map((op) => bySpec.get(op) as Route);
})();
