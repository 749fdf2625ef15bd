/** The public resource's route table: each operation of ./openapi bound to its handler. */

import { handleDocs, handleDocsScript, handleOpenApi } from '../docs';
import { bindRoutes } from '../route-table';
import { handleChargeLocation, handleJwks } from './handlers-location';
import {
  handleOpenFinanceAuthorize,
  handleOpenFinanceDecline,
  handleOpenFinancePage,
} from './handlers-open-finance';
import { publicOperations } from './openapi';

export const publicRoutes = bindRoutes(publicOperations, {
  getChargePayload: handleChargeLocation,
  getJwks: handleJwks,
  getOpenApiDocument: handleOpenApi,
  getDocsPage: handleDocs,
  getDocsScript: handleDocsScript,
  openFinancePage: handleOpenFinancePage,
  openFinanceAuthorize: handleOpenFinanceAuthorize,
  openFinanceDecline: handleOpenFinanceDecline,
});
