/** The partners resource's route table: each operation of ./openapi bound to its handler. */

import { handleRegisterPartnerWebhook } from '../admin/handlers-partners';
import { bindRoutes } from '../route-table';
import { handlePartnerPixCallback } from './handlers';
import { partnerOperations } from './openapi';

export const partnersRoutes = bindRoutes(partnerOperations, {
  partnerPixCallback: handlePartnerPixCallback,
  partnerPixCallbackSecretPath: handlePartnerPixCallback,
  registerPartnerWebhook: handleRegisterPartnerWebhook,
});
