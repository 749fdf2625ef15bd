/** The admin resource's route table: each operation of ./openapi bound to its handler. */
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
import { handleClearFaults, handleInjectFault } from './handlers-partners';
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
  injectPartnerFault: handleInjectFault,
  clearPartnerFaults: handleClearFaults,
  archiveClient: handleArchiveClient,
});
