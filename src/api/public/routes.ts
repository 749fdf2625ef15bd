/**
 * The public resource's route table: each production operation of ./openapi bound to its handler
 * (the staging-only ones: ./routes-staging.ts).
 */

import { handleDocs, handleDocsScript, handleOpenApi } from '../docs';
import { bindRoutes } from '../route-table';
import { handleChargeLocation, handleJwks } from './handlers-location';
import { publicOperations } from './openapi';

export const publicRoutes = bindRoutes(publicOperations, {
  getChargePayload: handleChargeLocation,
  getJwks: handleJwks,
  getOpenApiDocument: handleOpenApi,
  getDocsPage: handleDocs,
  getDocsScript: handleDocsScript,
});
