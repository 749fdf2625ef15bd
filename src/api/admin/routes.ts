/**
 * The admin resource's route table: each production operation of ./openapi bound to its handler
 * (the staging-only ones: ./routes-staging.ts).
 */
import { bindRoutes } from '../route-table';
import { handleArchiveClient } from './handlers-archive';
import { handleApproveCashOut, handleRejectCashOut } from './handlers-cash-outs';
import {
  handleCreateClient,
  handleDeactivateApplicationToken,
  handleDeactivateCryptoToken,
  handleGetClient,
  handlePatchClient,
  handleRotateCryptoToken,
} from './handlers-clients';
import { handleListWebhookDeliveries, handleRetryWebhookDelivery } from './handlers-webhooks';
import { adminOperations } from './openapi';

export const adminRoutes = bindRoutes(adminOperations, {
  createClient: handleCreateClient,
  getClient: handleGetClient,
  patchClient: handlePatchClient,
  rotateCryptoToken: handleRotateCryptoToken,
  deactivateCryptoToken: handleDeactivateCryptoToken,
  deactivateApplicationToken: handleDeactivateApplicationToken,
  approveCashOut: handleApproveCashOut,
  rejectCashOut: handleRejectCashOut,
  listWebhookDeliveries: handleListWebhookDeliveries,
  retryWebhookDelivery: handleRetryWebhookDelivery,
  archiveClient: handleArchiveClient,
});
