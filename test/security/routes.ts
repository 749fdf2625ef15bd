/**
 * The routes under test, derived from the router and the OpenAPI document instead of listed by
 * hand: a new route is fuzzed, authenticated and checked by these files as soon as it is routed
 * and documented (and fails `coverage` in fuzz-routes.test.ts when one of the two is missing).
 * Also the oracle every security test shares: is this answer one the document promises for the
 * operation that handled the request?
 */
import { Validator } from '@cfworker/json-schema';
import { expect } from 'vitest';
import { buildOpenApiDocument, OPERATIONS } from '../../src/api/document';
import type { OperationSpec } from '../../src/openapi/operation';
import { nameOf } from '../../src/schemas/named';
import { router } from '../../src/staging/router';

type Json = Record<string, any>;

export interface Route {
  /** `POST /cash-in/{id}/refund` */
  key: string;
  method: string;
  template: string;
  spec: OperationSpec;
  /** Path parameter names, in template order. */
  params: string[];
  /** Documented query parameter names. */
  query: string[];
  /** The document's own first request example (a valid body), when the operation takes one. */
  example?: Json;
}

export const DOC: Json = buildOpenApiDocument();

const template = (pattern: string) => pattern.replace(/:(\w+)\+?/g, '{$1}');

function routeFor(method: string, pattern: string): Route {
  const path = template(pattern);
  const key = `${method} ${path}`;
  const spec = OPERATIONS.find((op) => `${op.method.toUpperCase()} ${op.path}` === key);
  if (!spec) throw new Error(`${key} is routed but not documented`);
  const example = spec.body && Object.values(spec.body.examples)[0]?.value;
  return {
    key,
    method,
    template: path,
    spec,
    params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
    query: (spec.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name as string),
    ...(example !== undefined && { example: example as Json }),
  };
}

/** Every routed operation, in the router's order (the fallback `ALL *` excluded). */
export const ROUTES: Route[] = router.routes
  .filter(([method]) => method !== 'ALL')
  // itty stores the root as an empty pattern.
  .map(([method, , , pattern]) => routeFor(method, pattern || '/'));

export const routeByKey = (key: string): Route => {
  const route = ROUTES.find((r) => r.key === key);
  if (!route) throw new Error(`no route ${key}`);
  return route;
};

/**
 * The operation that handles `method url`, matched exactly like itty-router does (first match in
 * registration order, against the normalised pathname); undefined when the fallback answers.
 */
export function routeOf(method: string, url: string): Route | undefined {
  const { pathname } = new URL(url);
  for (const [m, regex, , pattern] of router.routes) {
    if ((m === method || m === 'ALL') && regex.test(pathname)) {
      return m === 'ALL'
        ? undefined
        : ROUTES.find((r) => r.method === m && r.template === template(pattern || '/'));
    }
  }
  return undefined;
}

/** `/cash-in/{id}` with each parameter replaced by its (already encoded) value. */
export function fillPath(route: Route, values: Record<string, string>): string {
  return route.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${route.key}: no value for {${name}}`);
    return value;
  });
}

const resolve = (value: Json): Json =>
  typeof value?.$ref === 'string'
    ? value.$ref
        .slice(2)
        .split('/')
        .reduce((node: Json, key: string) => node[key], DOC)
    : value;

/** The codes a Problem Details schema allows, and whether it allows the code-less ApplicationToken 401. */
function problemCodes(schema: Json | undefined): { codes: string[]; codeless: boolean } {
  const options = [schema, ...(schema?.anyOf ?? [])].filter(Boolean) as Json[];
  return {
    codes: options.flatMap((s) => s.allOf?.[1]?.properties?.code?.enum ?? []),
    codeless: options.some((s) => s.$ref === '#/components/schemas/ApplicationTokenProblem'),
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export async function answerOf(res: Response): Promise<Answer> {
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * Asserts that `answer` is documented for whatever handled `method url`: a documented status of
 * that operation; on errors, Problem Details whose `status` is the HTTP status and whose `code` the
 * document lists for that operation and status, or one of the documented other forms (the JWT 401
 * without body, the code-less ApplicationToken 401, the login 401, the HTML pages). A request no
 * route takes answers 404 NOT_FOUND, or 405 METHOD_NOT_ALLOWED with Allow (API description).
 * Returns the parsed problem, if any.
 */
export function expectDocumentedAnswer(method: string, url: string, answer: Answer): Json | undefined {
  const where = `${method} ${url.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  const route = routeOf(method, url);
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!route) {
    expect(type, where).toBe('application/problem+json');
    // A HEAD answer carries no body: its status and media type are all there is to check.
    if (method === 'HEAD' && answer.text === '') {
      expect([404, 405], where).toContain(answer.status);
      return undefined;
    }
    const body = JSON.parse(answer.text) as Json;
    expect(body.status, where).toBe(answer.status);
    if (answer.status === 405) {
      expect(body.code, where).toBe('METHOD_NOT_ALLOWED');
      expect(answer.headers.get('allow'), where).toBeTruthy();
    } else {
      expect([answer.status, body.code], where).toEqual([404, 'NOT_FOUND']);
    }
    return body;
  }
  const documented = DOC.paths[route.template][route.method.toLowerCase()].responses[String(answer.status)];
  expect(documented, `${where}: status not documented for ${route.key}`).toBeDefined();
  if (answer.status < 400) return undefined;
  const response = resolve(documented);
  if (answer.text === '') {
    // The JWT 401 of spec §5: no body, the reason in WWW-Authenticate (documented as a header).
    expect(answer.status, where).toBe(401);
    expect(answer.headers.get('www-authenticate'), where).toMatch(/^Bearer( error="invalid_token", .+)?$/);
    expect(response.headers?.['WWW-Authenticate'], where).toBeDefined();
    return undefined;
  }
  if (type !== 'application/problem+json') {
    // Documented other forms: the login 401 {message}, the open-finance HTML pages.
    expect(response.content?.[type], `${where}: ${type} not documented`).toBeDefined();
    return undefined;
  }
  const body = JSON.parse(answer.text) as Json;
  expect(body.status, where).toBe(answer.status);
  expect(typeof body.type, where).toBe('string');
  expect(typeof body.title, where).toBe('string');
  const { codes, codeless } = problemCodes(response.content?.['application/problem+json']?.schema);
  if (body.code === undefined) expect(codeless, `${where}: a problem without code`).toBe(true);
  else expect(codes, `${where}: code not documented for ${route.key} ${answer.status}`).toContain(body.code);
  return body;
}

/** Whether `value` satisfies the documented JSON Schema of the route's request body. */
export function documentedBodyAccepts(route: Route, value: unknown): boolean {
  const name = route.spec.body && nameOf(route.spec.body.schema);
  if (!name) return true;
  const validator = validators.get(name) ?? new Validator(rootSchema(name), '2020-12', false);
  validators.set(name, validator);
  return validator.validate(value).valid;
}

const validators = new Map<string, Validator>();

function rootSchema(name: string): Json {
  return {
    $ref: `#/components/schemas/${name}`,
    components: structuredClone(DOC.components),
  };
}
