/**
 * Checks a real response against the OpenAPI document the gateway serves: the status must be
 * documented for the operation, the media type too, and the body must validate against the
 * documented JSON Schema (@cfworker/json-schema, draft 2020-12). Validation is stricter than the
 * document: objects admit no undocumented fields, so a field added to a response without being
 * documented fails here.
 */
import { type OutputUnit, Validator } from '@cfworker/json-schema';
import { expect } from 'vitest';
import { call } from '../support/harness';

type Json = Record<string, any>;

let served: Json | undefined;

/** GET /openapi.json once per test file, with every object schema closed to extra fields. */
export async function servedDocument(): Promise<Json> {
  if (!served) {
    const res = await call('/openapi.json');
    expect(res.status).toBe(200);
    served = closeObjects(await res.json()) as Json;
  }
  return served;
}

function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = closeObjects(value);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

/** Response headers integrators act on: each must be documented where it is sent. */
const CONTRACT_HEADERS = ['idempotent-replayed', 'www-authenticate', 'retry-after', 'location'];

const resolve = (doc: Json, value: Json): Json =>
  typeof value.$ref === 'string'
    ? value.$ref
        .slice(2)
        .split('/')
        .reduce((node: Json, key: string) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
    : value;

export function validate(doc: Json, schema: Json, value: unknown): OutputUnit[] {
  const root = { ...structuredClone(schema), components: structuredClone(doc.components) };
  return new Validator(root, '2020-12', false).validate(value).errors;
}

/**
 * Asserts that `res` is a documented answer of `method path` (path as templated in the document)
 * and returns its parsed body (undefined when there is none).
 */
export async function expectDocumented(
  res: Response,
  method: string,
  path: string,
): Promise<Json | undefined> {
  const doc = await servedDocument();
  const operation = doc.paths[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is not documented`).toBeDefined();
  const documented = operation.responses[String(res.status)];
  expect(documented, `${method} ${path} answered ${res.status}, not documented`).toBeDefined();
  const response = resolve(doc, documented);
  const documentedHeaders = Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
  for (const header of CONTRACT_HEADERS) {
    if (res.headers.has(header)) {
      expect(documentedHeaders, `${method} ${path} ${res.status} sends ${header}`).toContain(header);
    }
  }
  const text = new TextDecoder().decode(await res.arrayBuffer());
  if (text === '') {
    const noBodyAllowed =
      response.content === undefined || (res.status === 401 && res.headers.has('www-authenticate'));
    expect(noBodyAllowed, `${method} ${path} ${res.status} has an empty body`).toBe(true);
    return undefined;
  }
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const media = response.content?.[mediaType];
  expect(media, `${method} ${path} ${res.status}: ${mediaType} is not documented`).toBeDefined();
  const body = mediaType.endsWith('json') ? JSON.parse(text) : text;
  const errors = validate(doc, media.schema, body);
  expect(errors, `${method} ${path} ${res.status} does not match the document:\n${text}`).toEqual([]);
  const example = doc.components.examples?.[body?.code]?.value;
  if (mediaType === 'application/problem+json' && example) {
    expect({ type: body.type, title: body.title }, 'the documented example of this code').toEqual({
      type: example.type,
      title: example.title,
    });
  }
  return body;
}
