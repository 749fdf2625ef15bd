/**
 * The OpenAPI document of the route table's operations (./routes.ts; src/openapi/document.ts
 * assembles it).
 * Built once per isolate on first use (GET /openapi.json, GET /docs) and kept as a string, so
 * requests that do not ask for it pay nothing.
 */

import { assembleDocument } from '../openapi/document';
import type { Schema } from '../openapi/json-schema';
import { OPERATIONS } from './routes';

export { OPERATIONS };

export function buildOpenApiDocument(): Schema {
  return assembleDocument(OPERATIONS);
}

let cached: string | undefined;

/** The document as JSON text, built on first use in this isolate. */
export function openApiJson(): string {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return cached;
}
