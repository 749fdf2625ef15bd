/**
 * Every documented operation, in the order the docs page shows them: each resource module's
 * ./openapi list. src/api/routes.ts binds the same lists to handlers and checks it covers them all.
 */
import type { OperationSpec } from '../openapi/operation';
import { accountOperations } from './account/openapi';
import { adminOperations } from './admin/openapi';
import { adminBooksOperations } from './admin-books/openapi';
import { adminHealthOperations } from './admin-health/openapi';
import { authOperations } from './auth/openapi';
import { cashInOperations } from './cash-in/openapi';
import { cashOutOperations } from './cash-out/openapi';
import { cashOutBatchOperations } from './cash-out-batch/openapi';
import { healthOperations } from './health/openapi';
import { partnerOperations } from './partners/openapi';
import { publicOperations } from './public/openapi';
import { sandboxOperations } from './sandbox/openapi';

export const OPERATIONS: readonly OperationSpec[] = [
  ...authOperations,
  ...cashInOperations,
  ...cashOutOperations,
  ...cashOutBatchOperations,
  ...healthOperations,
  ...accountOperations,
  ...sandboxOperations,
  ...publicOperations,
  ...adminOperations,
  ...adminHealthOperations,
  ...adminBooksOperations,
  ...partnerOperations,
];
