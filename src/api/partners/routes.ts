/** The settlement partners' operations, in the document's order. */
import type { Route } from '../route-table';
import { partnerPixCallback, partnerPixCallbackSecretPath } from './pix-callback';
import {
  partnerCobrCallback,
  partnerCobrCallbackSecretPath,
  partnerRecCallback,
  partnerRecCallbackSecretPath,
} from './recurrence-callbacks';
import { registerPartnerWebhook } from './register-partner-webhook';

export const partnersRoutes: Route[] = [
  partnerPixCallback,
  partnerPixCallbackSecretPath,
  partnerRecCallback,
  partnerRecCallbackSecretPath,
  partnerCobrCallback,
  partnerCobrCallbackSecretPath,
  registerPartnerWebhook,
];
