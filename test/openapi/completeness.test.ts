/**
 * The document and the router describe the same API: every registered route has a documented
 * operation and every documented operation is routed. Also the structural promises the linter
 * cannot know about (error responses, path parameters, codes from the catalog).
 */
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/api/document';
import { ERROR_CATALOG } from '../../src/contract/error-catalog';
import { router } from '../../src/staging/router';
import { call } from '../support/harness';
import { servedDocument } from './conformance';

type Json = Record<string, any>;

/** itty patterns (`/cash-in/:id`) as OpenAPI templates (`/cash-in/{id}`). */
/** itty stores the root as an empty pattern. */
const template = (pattern: string) => pattern.replace(/:(\w+)\+?/g, '{$1}');

const routed = () =>
  router.routes
    .filter(([method]) => method !== 'ALL')
    .map(([method, , , pattern]) => `${method} ${template(pattern || '/')}`)
    .sort();

const operations = (doc: Json) =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      path,
      op: op as Json,
    })),
  );

/** Operations that cannot fail with a 4xx (nothing in the request can be wrong). */
const NO_CLIENT_ERROR = [
  'GET /',
  'GET /.well-known/jwks.json',
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/redoc.standalone.js',
];

/** Catalog codes no routed operation answers yet (405 is documented once, in the API description). */
const NOT_ROUTED_CODES = [
  'METHOD_NOT_ALLOWED',
  'PIX_INCIDENT_NOT_FOUND',
  'PIX_HEALTH_UNAVAILABLE',
  'invalid-window',
  'invalid-status',
  'invalid-page',
  'invalid-page-size',
  'invalid-incident-id',
];

const resolve = (doc: Json, value: Json): Json =>
  value.$ref
    ? value.$ref
        .slice(2)
        .split('/')
        .reduce((node: Json, key: string) => node[key], doc)
    : value;

function documentedCodes(doc: Json, response: Json): string[] {
  const media = resolve(doc, response).content?.['application/problem+json'];
  const schemas = [media?.schema, ...(media?.schema?.anyOf ?? [])].filter(Boolean);
  return schemas.flatMap((s: Json) => s.allOf?.[1]?.properties?.code?.enum ?? []);
}

describe('OpenAPI document completeness', () => {
  it('serves exactly the document built from the code', async () => {
    expect(await (await call('/openapi.json')).json()).toEqual(buildOpenApiDocument());
  });

  it('documents every route of the router, and nothing else', async () => {
    const doc = await servedDocument();
    const documented = operations(doc)
      .map((o) => o.key)
      .sort();
    expect(
      documented.filter((k) => !routed().includes(k)),
      'documented but not routed',
    ).toEqual([]);
    expect(
      routed().filter((k) => !documented.includes(k)),
      'routed but not documented',
    ).toEqual([]);
  });

  it('declares exactly the path parameters of each template', async () => {
    for (const { key, path, op } of operations(await servedDocument())) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? [])
        .filter((p: Json) => p.in === 'path')
        .map((p: Json) => p.name)
        .sort();
      expect(declared, key).toEqual(inPath);
    }
  });

  it('gives every operation a success answer, its 4xx answers and a 500', async () => {
    const doc = await servedDocument();
    for (const { key, op } of operations(doc)) {
      const statuses = Object.keys(op.responses);
      expect(
        statuses.some((s) => /^[23]/.test(s)),
        `${key} has no success response`,
      ).toBe(true);
      expect(statuses, key).toContain('500');
      if (!NO_CLIENT_ERROR.includes(key))
        expect(
          statuses.some((s) => s.startsWith('4')),
          `${key} has no 4xx`,
        ).toBe(true);
      if (op.security.length > 0) expect(statuses, `${key} is authenticated`).toContain('401');
    }
  });

  it('lists only catalog codes, each under its own status, and every routed code somewhere', async () => {
    const doc = await servedDocument();
    const seen = new Set<string>();
    for (const { key, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        for (const code of documentedCodes(doc, response)) {
          expect(ERROR_CATALOG, `${key}: ${code}`).toHaveProperty(code);
          expect(String(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status), `${key}: ${code}`).toBe(
            status,
          );
          seen.add(code);
        }
      }
    }
    const missing = Object.keys(ERROR_CATALOG).filter((code) => !seen.has(code));
    expect(
      missing.filter((code) => !NOT_ROUTED_CODES.includes(code)),
      'catalog codes no operation documents',
    ).toEqual([]);
  });
});
