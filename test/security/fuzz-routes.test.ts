/**
 * Fuzzing every routed operation (issue 9, item 1): bodies shaped around the operation's own
 * documented example with one field wrong, malformed, deeply nested or over a megabyte; headers
 * (credentials, DigitalSignature, idempotency key, content type) valid, missing, forged or junk;
 * path ids real, foreign or hostile; query strings with repeated, huge and invalid values. Every
 * answer must be one the OpenAPI document promises for the operation that handled it: never a
 * 5xx, errors as Problem Details whose status and code are documented for that operation and
 * status (or one of the documented other forms). The routes come from the router itself, so a new
 * route is fuzzed without being listed here. On failure fast-check prints the seed and path;
 * pass them back as `{ seed, path }` in PARAMS to replay.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientKey } from '../../src/domain/location';
import { batchItems, createBatch } from '../support/cash-out-batch';
import { ADMIN_TOKEN, call, Integrator, sign } from '../support/harness';
import { SECRET } from '../support/partner-psp';
import { newSink } from '../support/webhooks';
import { clientWithHistory, type History, idsOf } from './fixtures';
import { jwtCases, signatureCases } from './forged';
import {
  BodyCase,
  deepBody,
  headerJunk,
  hostileSegment,
  hugeBody,
  malformedBody,
  mutatedBody,
  queryString,
} from './fuzz-values';
import { answerOf, documentedBodyAccepts, expectDocumentedAnswer, ROUTES, type Route } from './routes';

const RUNS_PER_ROUTE = 100;
const PARAMS = { numRuns: RUNS_PER_ROUTE };
/** Path parameter names this file knows how to fill; a new one fails `coverage` until added. */
const PARAM_NAMES = [
  'id',
  'number',
  'clientId',
  'eventId',
  'ispb',
  'locator',
  'secret',
  'batchId',
  'operatorId',
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'QUERY'];

let history: History;
let other: Integrator;
let victimClientId: string;
let realValues: Record<string, string[]>;
let authorizations: (string | null)[];
let signatures: (string | null)[];
let sinkUrl: string;
/** Real cursors of the fuzzed client's lists, and each with one character changed. */
let cursors: string[];

/** A URL-typed field of an example points at the local receiver, never at the example's host. */
const URL_FIELDS = new Set(['webhookUrl', 'redirectUrl', 'healthWebhookUrl']);
let refCounter = 0;

/** The document's example, made usable: a fresh externalReference and local URLs. */
function example(route: Route): Record<string, any> | undefined {
  if (!route.example) return undefined;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        URL_FIELDS.has(k) ? sinkUrl : k === 'externalReference' ? '__REF__' : rewrite(v),
      ]),
    );
  };
  return rewrite(route.example) as Record<string, any>;
}

beforeAll(async () => {
  history = await clientWithHistory();
  other = await Integrator.create();
  victimClientId = (await Integrator.create()).client.clientId;
  sinkUrl = newSink().url;
  const { api } = history;
  const resources = [history.awaiting, history.paid, history.completed, history.cancelled];
  realValues = {
    id: resources.flatMap((r) => Object.values(idsOf(r))),
    number: [...api.client.accounts, ...other.client.accounts].map((a) => a.number),
    // Operator routes act on a throwaway client, so the fuzzed client keeps its credentials.
    clientId: [victimClientId],
    eventId: [],
    // Well-formed and nobody's: removing a real operator is test/api/operators' business.
    operatorId: ['op_0000000000000000'],
    // Never a real partner: a valid fault injection would disturb every other test file.
    ispb: ['99999999'],
    // A partner callback's path secret: a wrong one and the test partner's real one (on ispb above).
    secret: ['0000000000000000', SECRET],
    locator: [history.awaiting, history.paid].map(
      (c) => `${clientKey(api.client.clientId)}${c.internalCode}`,
    ),
    // The client's own batch, the other client's (a foreign id) and a well-formed one of nobody.
    batchId: [history.batch.batchId, (await createBatch(other, batchItems(1))).batchId, crypto.randomUUID()],
  };
  const period = `from=${api.client.statementStartDate}&to=2100-12-31&limit=1`;
  const account = api.client.accounts[0]!.number;
  cursors = [];
  for (const list of ['/cash-in', '/cash-out', `/account/${account}/statement`]) {
    const cursor = ((await (await api.get(`${list}?${period}`)).json()) as { nextCursor: string }).nextCursor;
    expect(cursor, list).toBeDefined();
    const flipped = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    cursors.push(cursor, flipped);
  }
  const olderToken = api.token;
  authorizations = [
    `Bearer ${api.token}`,
    `Bearer ${other.token}`,
    `Bearer ${ADMIN_TOKEN}`,
    ...(await jwtCases(api, other)).map((c) => c.authorization),
  ];
  signatures = [
    await sign(api.client.cryptoToken, api.token),
    ...(await signatureCases(api, other, olderToken)).map((c) => c.signature),
  ];
});

/** The value of a path parameter in a request that would otherwise succeed. */
function baselineParam(route: Route, name: string): string {
  if (name === 'id' && !route.template.startsWith('/admin')) {
    const resource = route.template.includes('cash-out') ? history.completed : history.awaiting;
    return resource.internalCode as string;
  }
  return encodeURIComponent(realValues[name]?.[0] ?? 'NOSUCH1');
}

function segment(name: string): fc.Arbitrary<string> {
  const real = (realValues[name] ?? []).map(encodeURIComponent);
  return real.length > 0 ? fc.oneof(fc.constantFrom(...real), hostileSegment) : hostileSegment;
}

/** The query a list, summary or statement needs; nothing for the others. */
function baselineQuery(route: Route): string {
  const period = route.query.includes('from') && route.query.includes('to') && !route.query.includes('page');
  return period ? `from=${history.api.client.statementStartDate}&to=2100-12-31` : '';
}

/** The headers an integrator (or the operator) sends for this route, all valid. */
function baselineHeaders(route: Route): Record<string, string> {
  const { api } = history;
  return {
    authorization: route.spec.auth === 'operator' ? `Bearer ${ADMIN_TOKEN}` : `Bearer ${api.token}`,
    applicationtoken: api.client.applicationToken,
    digitalsignature: signatures[0] as string,
    'content-type': 'application/json',
  };
}

/** Replacements for each header: missing (null), forged, foreign or junk. */
function brokenHeaders(): fc.Arbitrary<Record<string, string | null | undefined>> {
  const { api } = history;
  const broken = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
  return fc.record({
    authorization: broken(fc.oneof(fc.constantFrom(...authorizations), headerJunk)),
    applicationtoken: broken(
      fc.oneof(
        fc.constantFrom(
          null,
          other.client.applicationToken,
          api.client.applicationToken.toUpperCase(),
          ` ${api.client.applicationToken} `,
        ),
        headerJunk,
      ),
    ),
    digitalsignature: broken(fc.oneof(fc.constantFrom(...signatures.slice(1)), headerJunk)),
    'x-idempotency-key': broken(
      fc.oneof(
        fc.uuid(),
        fc.constantFrom('k'.repeat(100), 'k'.repeat(101), 'k'.repeat(5000), '', '   '),
        headerJunk,
      ),
    ),
    'content-type': broken(
      fc.oneof(
        fc.constantFrom(
          null,
          'application/json; charset=utf-8',
          'application/problem+json',
          'APPLICATION/JSON',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          'application/jsonx',
          'json',
        ),
        headerJunk,
      ),
    ),
    'content-length': broken(fc.constantFrom('0', '1', '99999999', '-1', 'abc')),
  });
}

/** A body for the route other than its example: mutated, malformed, deep, huge or random. */
function brokenBody(route: Route): fc.Arbitrary<BodyCase> {
  const base = example(route);
  const cases: fc.Arbitrary<BodyCase>[] = [
    malformedBody(base),
    fc.constantFrom(...edgeBodies(route)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => new BodyCase('random JSON', JSON.stringify(v))),
  ];
  if (base) cases.push(mutatedBody(base), mutatedBody(base), mutatedBody(base));
  return fc.oneof(...cases);
}

/** Bodies every route gets at least once, before the random ones: the deepest and the largest. */
function edgeBodies(route: Route): BodyCase[] {
  return [...deepBody(example(route), 30_000), hugeBody(example(route))];
}

/**
 * A request that would succeed (the route's method, real ids, valid query, credentials and body)
 * with any number of its parts broken: most runs break one or two, so they get deep into the
 * handler before failing.
 */
function request(route: Route) {
  const broken = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
  return fc.record({
    method: fc.option(fc.constantFrom(...METHODS), { nil: undefined, freq: 6 }),
    params: fc.record<Record<string, string | undefined>>(
      Object.fromEntries(route.params.map((name) => [name, broken(segment(name))])),
    ),
    query: broken(queryString(route.query, cursors)),
    headers: brokenHeaders(),
    body: broken(brokenBody(route)),
  });
}

type Fuzzed = ReturnType<typeof request> extends fc.Arbitrary<infer T> ? T : never;

function send(route: Route, r: Fuzzed) {
  const method = r.method ?? route.method;
  const path = route.template.replace(
    /\{(\w+)\}/g,
    (_, name: string) => r.params[name] ?? baselineParam(route, name),
  );
  const query = r.query ?? baselineQuery(route);
  const url = `${path}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = { ...baselineHeaders(route) };
  for (const [name, value] of Object.entries(r.headers)) {
    if (value === null) delete headers[name];
    else if (value !== undefined) headers[name] = value;
  }
  const base = example(route);
  const data = r.body?.data ?? (base ? JSON.stringify(base) : '');
  // One reference per occurrence: a batch's items must not repeat one another's.
  const unique = () => `fz-${Date.now()}-${++refCounter}`;
  const payload = typeof data === 'string' ? data.replaceAll('__REF__', unique) : data;
  const withBody = method !== 'GET' && method !== 'HEAD';
  return { url, init: { method, headers, ...(withBody && { body: payload }) } };
}

/** The edge bodies sent with everything else valid: fast-check runs these examples first. */
function edgeExamples(route: Route): [Fuzzed][] {
  const none = Object.fromEntries(route.params.map((name) => [name, undefined]));
  const noHeaders = { authorization: undefined, applicationtoken: undefined, digitalsignature: undefined };
  return edgeBodies(route).map((body) => [
    {
      method: undefined,
      params: none,
      query: undefined,
      headers: {
        ...noHeaders,
        'x-idempotency-key': undefined,
        'content-type': undefined,
        'content-length': undefined,
      },
      body,
    },
  ]);
}

describe('fuzzing every routed operation', () => {
  it('covers every route: each path parameter has values, each example is a documented body', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(40);
    for (const route of ROUTES) {
      for (const name of route.params) expect(PARAM_NAMES, `${route.key} {${name}}`).toContain(name);
      if (route.example) expect(documentedBodyAccepts(route, route.example), route.key).toBe(true);
      if (route.spec.body) expect(route.example, `${route.key} has no request example`).toBeDefined();
    }
  });

  it.each(ROUTES.map((r) => [r.key, r] as const))('%s answers only documented answers', async (_, route) => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request(route), async (r) => {
        const { url, init } = send(route, r);
        const answer = await answerOf(await call(url, init));
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        expectDocumentedAnswer(init.method, `http://x${url}`, answer);
      }),
      { ...PARAMS, examples: edgeExamples(route) },
    );
    // The fuzzing got past the front door: some answers are neither 401 nor 400.
    expect(
      [...seen.keys()].some((s) => s !== 401 && s !== 400),
      `${route.key}: ${[...seen.entries()]}`,
    ).toBe(true);
  });

  it('answers header values outside ASCII (the bytes of invalid UTF-8) with documented answers', async () => {
    const oneOfEachKind = ['none', 'client', 'signed', 'operator'].map(
      (auth) => ROUTES.find((r) => r.spec.auth === auth && r.spec.body)!,
    );
    for (const route of oneOfEachKind) {
      for (const header of [
        'authorization',
        'applicationtoken',
        'digitalsignature',
        'x-idempotency-key',
        'content-type',
      ]) {
        const { url, init } = send(route, { ...edgeExamples(route)[0]![0], body: undefined });
        init.headers[header] = header === 'authorization' ? 'Bearer \u00c3\u0028' : '\u00c3\u0028\u00ff';
        const answer = await answerOf(await call(url, init));
        expectDocumentedAnswer(init.method, `http://x${url}`, answer);
      }
    }
  });

  it('answers requests no route takes with 404 NOT_FOUND or 405 METHOD_NOT_ALLOWED', async () => {
    const paths = fc.oneof(
      fc.array(hostileSegment, { minLength: 1, maxLength: 5 }).map((s) => `/${s.join('/')}`),
      fc.constantFrom(
        '/',
        '//cash-in',
        '/CASH-IN',
        '/cash-in/a/b/c',
        '/admin',
        '/admin/clients/x/y/z',
        '/sandbox',
      ),
    );
    await fc.assert(
      fc.asyncProperty(paths, fc.constantFrom(...METHODS), async (path, method) => {
        const answer = await answerOf(await call(path, { method }));
        expectDocumentedAnswer(method, `http://x${path}`, answer);
      }),
      { numRuns: 300 },
    );
  });
});
