/**
 * The public operations, in the document's order; the staging-only open-finance consent pages are
 * documented here and routed by ./routes-staging.ts alone.
 */
import { type Entry, stagingOnly } from '../route-table';
import { getDocsPage, getDocsScript, getLandingPage, getOpenApiDocument } from './documentation';
import { getChargePayload } from './get-charge-payload';
import { getJwks } from './get-jwks';
import { getRecurrencePayload } from './get-recurrence-payload';
import { openFinanceOperations } from './open-finance';

export const publicRoutes: Entry[] = [
  getChargePayload,
  getRecurrencePayload,
  getJwks,
  ...stagingOnly(openFinanceOperations),
  getOpenApiDocument,
  getLandingPage,
  getDocsPage,
  getDocsScript,
];
