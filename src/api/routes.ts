/**
 * The route table: every documented operation, resource by resource, in the document's order. The
 * production router (./router.ts) registers its routes (ROUTES), the document (./document.ts)
 * documents all of it (OPERATIONS), and the staging entry (src/staging/routes.ts) routes the
 * staging-only operations too. A staging-only operation is here without its handler, which only the
 * staging entry imports (./route-table.ts).
 */
import type { OperationSpec } from '../openapi/operation';
import { accountRoutes } from './account/routes';
import { adminRoutes } from './admin/routes';
import { adminBooksRoutes } from './admin-books/routes';
import { adminHealthRoutes } from './admin-health/routes';
import { authRoutes } from './auth/routes';
import { cashInRoutes } from './cash-in/routes';
import { cashOutRoutes } from './cash-out/routes';
import { cashOutBatchRoutes } from './cash-out-batch/routes';
import { healthRoutes } from './health/routes';
import { operatorsRoutes } from './operators/routes';
import { partnersRoutes } from './partners/routes';
import { publicRoutes } from './public/routes';
import { recurrenceRoutes } from './recurrence/routes';
import { type Entry, isRoute, type Route, stagingOnly } from './route-table';
import { sandboxOperations } from './sandbox/openapi';

const TABLE: readonly Entry[] = [
  ...authRoutes,
  ...cashInRoutes,
  ...cashOutRoutes,
  ...cashOutBatchRoutes,
  ...recurrenceRoutes,
  ...healthRoutes,
  ...accountRoutes,
  ...stagingOnly(sandboxOperations),
  ...publicRoutes,
  ...adminRoutes,
  ...operatorsRoutes,
  ...adminHealthRoutes,
  ...adminBooksRoutes,
  ...partnersRoutes,
];

/** Every documented operation, in the order the docs page shows them. */
export const OPERATIONS: readonly OperationSpec[] = TABLE.map((entry) => entry.spec);

/** The production API's routes: every operation but the staging-only ones. */
export const ROUTES: readonly Route[] = TABLE.filter(isRoute);

// One declaration per operation, and production routes exactly the operations that are not staging-only.
const ids = new Set(OPERATIONS.map((op) => op.operationId));
const misrouted = TABLE.filter((entry) => isRoute(entry) === !!entry.spec.stagingOnly);
if (ids.size !== OPERATIONS.length || new Set(OPERATIONS).size !== OPERATIONS.length || misrouted.length > 0)
  throw new Error(
    `route table: operations declared twice, or routed against their staging flag: ${misrouted.map((e) => e.spec.operationId).join(', ')}`,
  );
