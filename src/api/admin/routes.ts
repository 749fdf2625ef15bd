/**
 * The operator API's operations, in the document's order; one file each. The staging-only fault
 * injection is documented here and routed by ./routes-staging.ts alone.
 */
import { type Entry, stagingOnly } from '../route-table';
import { archiveClient } from './archive-client';
import { createClient } from './create-client';
import { deactivateApplicationToken } from './deactivate-application-token';
import { deactivateCryptoToken } from './deactivate-crypto-token';
import { approveCashOut, rejectCashOut } from './decide-cash-out';
import { getClient } from './get-client';
import { listAdminDisputes } from './list-disputes';
import { listWebhookDeliveries } from './list-webhook-deliveries';
import { partnerFaultOperations } from './partner-faults';
import { patchClient } from './patch-client';
import { retryWebhookDelivery } from './retry-webhook-delivery';
import { rotateCryptoToken } from './rotate-crypto-token';

export const adminRoutes: Entry[] = [
  createClient,
  getClient,
  patchClient,
  rotateCryptoToken,
  deactivateCryptoToken,
  deactivateApplicationToken,
  approveCashOut,
  rejectCashOut,
  listWebhookDeliveries,
  retryWebhookDelivery,
  archiveClient,
  listAdminDisputes,
  ...stagingOnly(partnerFaultOperations),
];
