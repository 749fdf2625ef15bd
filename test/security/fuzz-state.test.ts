/**
 * Rejected requests change nothing (issue 9, item 1). A client with money, Cash-Ins and Cash-Outs
 * receives, on every routed operation that can touch it, requests that would succeed but for
 * exactly one defect: a forged or missing credential, a wrong DigitalSignature, a bad idempotency
 * key, a wrong content type, a malformed, deep or huge body, a body the document's schema rejects
 * (one field mutated), a hostile path id, a state the operation does not allow, a wrong method.
 * Each defect must get its documented answer, and afterwards every table of the client's Durable
 * Object, its D1 rows, its lists, balances and statements are exactly as before; the idempotency
 * keys used only by rejected requests still work for a valid one. Routes come from the router, so
 * a new route is covered here too. fast-check prints seed and path on failure.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ClientLedger } from '../../durable-objects/client-ledger';
import { clientKey } from '../../src/domain/location';
import { allowedMethods } from '../../src/staging/router';
import { cashOutBody } from '../support/cash-out';
import { ADMIN_TOKEN, call, cashInBody, Integrator, issueToken, sign } from '../support/harness';
import { clientWithHistory, type History, idsOf, quietState } from './fixtures';
import { type JwtCase, jwtCases, type SignatureCase, signatureCases } from './forged';
import { BodyCase, deepBody, hostileSegment, hugeBody, malformedBody, mutatedBody } from './fuzz-values';
import {
  type Answer,
  answerOf,
  documentedBodyAccepts,
  expectDocumentedAnswer,
  ROUTES,
  type Route,
  routeOf,
} from './routes';

/** Runs per route and per kind of defect it can have. */
const RUNS_PER_DEFECT = 20;
const KEYS = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
const FAR_TO = '2100-12-31';

type Row = Record<string, any>;

/** A request with one defect and what the contract says it must answer. */
class Planned {
  constructor(
    readonly label: string,
    readonly method: string,
    readonly path: string,
    readonly headers: Record<string, string>,
    readonly body: BodyCase | undefined,
    readonly expectAnswer: (answer: Answer) => void,
    /** Not a defect after all (a mutation the document allows): the run is skipped. */
    readonly valid = false,
  ) {}

  [fc.toStringMethod](): string {
    return `${this.method} ${this.path.slice(0, 120)} [${this.label}]`;
  }
}

let h: History;
let other: Integrator;
let before: Record<string, Row[]>;
let apiViews: unknown;
let jwts: JwtCase[];
let signatureDefects: SignatureCase[];
/** Signs the current token of the client under test. */
let validSignature: string;
let refCounter = 0;

/** Operations that can reach the client, minus those that act on shared partners (fault injection). */
const TARGETS = ROUTES.filter((r) => !r.params.includes('ispb'));

/** The resource each id-taking operation would succeed on, so only the defect stops it. */
function targetOf(route: Route): Row | undefined {
  const t = route.template;
  if (t.startsWith('/health')) return undefined;
  if (t.includes('cash-out')) return h.completed;
  if (/refund|return$/.test(t) || t === '/cash-in/{id}') return h.paid;
  return h.awaiting;
}

function realParam(route: Route, name: string, idKind: number): string {
  const { api } = h;
  switch (name) {
    case 'id': {
      const target = targetOf(route);
      if (!target) return 'inc_none';
      const ids = Object.values(idsOf(target));
      return encodeURIComponent(ids[idKind % ids.length] as string);
    }
    case 'number':
      return api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!.number;
    case 'clientId':
      return api.client.clientId;
    case 'eventId':
      return 'evt_none';
    case 'operatorId':
      return 'op_0000000000000000';
    case 'locator':
      return `${clientKey(api.client.clientId)}${h.awaiting.internalCode}`;
    case 'batchId':
      return encodeURIComponent(h.batch.batchId);
    default:
      throw new Error(`${route.key}: no real value for {${name}}`);
  }
}

function fill(route: Route, values: Record<string, string>): string {
  const path = route.template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] as string);
  const period = route.query.includes('from') && !route.query.includes('page');
  return period ? `${path}?from=${h.api.client.statementStartDate}&to=${FAR_TO}` : path;
}

function validHeaders(route: Route, key: number): Record<string, string> {
  const { api } = h;
  const out: Record<string, string> = { 'content-type': 'application/json' };
  if (route.spec.auth === 'operator') out.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (route.spec.auth === 'client' || route.spec.auth === 'signed') {
    out.authorization = `Bearer ${api.token}`;
    out.applicationtoken = api.client.applicationToken;
  }
  if (route.spec.auth === 'signed') out.digitalsignature = validSignature;
  if (route.spec.idempotent) out['x-idempotency-key'] = KEYS[key % KEYS.length] as string;
  return out;
}

/**
 * The route's documented example with fresh externalReferences (a duplicate is its own defect),
 * each batch item's too, and no URLs the test host would refuse.
 */
function exampleOf(route: Route): Row | undefined {
  if (!route.example) return undefined;
  const copy = structuredClone(route.example);
  for (const part of [copy, ...(Array.isArray(copy.items) ? copy.items : [])] as Row[]) {
    if ('externalReference' in part) part.externalReference = `st-${Date.now()}-${++refCounter}`;
    for (const field of ['webhookUrl', 'redirectUrl', 'healthWebhookUrl']) delete part[field];
  }
  if (copy.openFinance) delete copy.openFinance;
  return copy;
}

const status = (code: number) => (a: Answer) => expect(a.status, a.text.slice(0, 200)).toBe(code);
const problem = (code: string, httpStatus: number) => (a: Answer) => {
  expect(a.status, a.text.slice(0, 200)).toBe(httpStatus);
  expect(JSON.parse(a.text).code).toBe(code);
};
const rejected = (a: Answer) => {
  expect(a.status, a.text.slice(0, 200)).toBeGreaterThanOrEqual(400);
};

/** Bodies that might be a valid request once parsed: not a defect, so fast-check skips them. */
function mightBeValid(route: Route, body: BodyCase): boolean {
  if (typeof body.data !== 'string') {
    try {
      return mightBeValid(
        route,
        new BodyCase('', new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body.data)),
      );
    } catch {
      return false;
    }
  }
  if (body.data.length > 64 * 1024) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.data);
  } catch {
    return body.data === '' && route.spec.body?.required === false;
  }
  return (
    parsed !== null &&
    typeof parsed === 'object' &&
    !Array.isArray(parsed) &&
    documentedBodyAccepts(route, parsed)
  );
}

/** Every defect this route can have, as arbitraries of planned requests. */
function defects(route: Route): fc.Arbitrary<Planned>[] {
  const idKind = fc.nat(4);
  const key = fc.nat(KEYS.length - 1);
  const base = (k: number, i: number) => ({
    params: Object.fromEntries(route.params.map((n) => [n, realParam(route, n, i)])),
    headers: validHeaders(route, k),
    body: exampleOf(route),
  });
  const plan = (
    label: string,
    p: ReturnType<typeof base>,
    expectAnswer: (a: Answer) => void,
    body?: BodyCase,
    method = route.method,
  ) =>
    new Planned(
      label,
      method,
      fill(route, p.params),
      p.headers,
      body ?? (p.body ? new BodyCase('example', JSON.stringify(p.body)) : undefined),
      expectAnswer,
      body !== undefined && mightBeValid(route, body),
    );
  const out: fc.Arbitrary<Planned>[] = [];
  const { api } = h;

  if (route.spec.auth === 'client' || route.spec.auth === 'signed') {
    out.push(
      fc.tuple(fc.constantFrom(...jwts), key, idKind).map(([jwt, k, i]) => {
        const p = base(k, i);
        if (jwt.authorization === null) delete p.headers.authorization;
        else p.headers.authorization = jwt.authorization;
        return plan(`JWT: ${jwt.name}`, p, (a) => {
          expect(a.status).toBe(401);
          expect(a.text).toBe('');
          expect(a.headers.get('www-authenticate')).toMatch(jwt.challenge);
        });
      }),
      fc
        .tuple(
          fc.constantFrom(null, other.client.applicationToken, 'not-a-guid', crypto.randomUUID()),
          key,
          idKind,
        )
        .map(([token, k, i]) => {
          const p = base(k, i);
          if (token === null) delete p.headers.applicationtoken;
          else p.headers.applicationtoken = token;
          return plan(`ApplicationToken ${token}`, p, (a) => {
            expect(a.status).toBe(401);
            expect(JSON.parse(a.text).code).toBeUndefined();
          });
        }),
      fc.tuple(key, idKind).map(([k, i]) => {
        const p = base(k, i);
        p.headers.authorization = `Bearer ${other.token}`;
        return plan("the other client's JWT with this ApplicationToken", p, status(401));
      }),
    );
  }
  if (route.spec.auth === 'operator') {
    out.push(
      fc
        .tuple(
          fc.constantFrom(null, `Bearer ${api.token}`, `Bearer ${ADMIN_TOKEN}x`, 'Bearer', ADMIN_TOKEN),
          idKind,
        )
        .map(([authorization, i]) => {
          const p = base(0, i);
          if (authorization === null) delete p.headers.authorization;
          else p.headers.authorization = authorization;
          return plan(`operator token ${authorization}`, p, problem('UNAUTHORIZED', 401));
        }),
    );
  }
  if (route.spec.auth === 'signed') {
    out.push(
      fc.tuple(fc.constantFrom(...signatureDefects), key, idKind).map(([c, k, i]) => {
        const p = base(k, i);
        if (c.signature === null) delete p.headers.digitalsignature;
        else p.headers.digitalsignature = c.signature;
        return plan(`DigitalSignature ${c.name}`, p, problem(c.code, 401));
      }),
    );
  }
  if (route.spec.idempotent) {
    out.push(
      fc.tuple(fc.constantFrom('k'.repeat(101), 'k'.repeat(5000), '', '   '), idKind).map(([badKey, i]) => {
        const p = base(0, i);
        p.headers['x-idempotency-key'] = badKey;
        return plan(`idempotency key of ${badKey.length} chars`, p, problem('IDEMPOTENCY_KEY_INVALID', 400));
      }),
    );
  }
  if (route.example) {
    const bodyDefect = (arb: fc.Arbitrary<BodyCase>) =>
      fc
        .tuple(arb, key, idKind)
        .map(([body, k, i]) =>
          plan(`body ${body.label}`, base(k, i), problem('VALIDATION_ERROR', 400), body),
        );
    const example = exampleOf(route)!;
    out.push(
      bodyDefect(mutatedBody(example)),
      bodyDefect(mutatedBody(example)),
      bodyDefect(malformedBody(example)),
      bodyDefect(fc.constantFrom(...deepBody(example, 30_000), ...deepBody(example, 33), hugeBody(example))),
      fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'text/json',
            'multipart/form-data; boundary=x',
            'application/x-www-form-urlencoded',
            'application/jsonx',
          ),
          key,
          idKind,
        )
        .map(([type, k, i]) => {
          const p = base(k, i);
          p.headers['content-type'] = type;
          return plan(`content-type ${type}`, p, problem('VALIDATION_ERROR', 400));
        }),
    );
  }
  const hostile = route.params.filter((n) => n !== 'eventId');
  if (hostile.length > 0) {
    out.push(
      fc.tuple(fc.constantFrom(...hostile), hostileSegment, key).map(([name, segment, k]) => {
        const p = base(k, 0);
        p.params[name] = segment;
        // A `..` may lead a GET to its parent, another operation: then any documented answer will do.
        const rerouted = routeOf(route.method, `http://x${fill(route, p.params)}`)?.key !== route.key;
        return plan(`{${name}} = ${segment.slice(0, 40)}`, p, rerouted ? () => {} : rejected);
      }),
    );
  }
  const stateDefect = STATE_DEFECTS[route.key];
  if (stateDefect) {
    out.push(
      fc.tuple(key, idKind).map(([k, i]) => {
        const p = base(k, i);
        const { label, code, httpStatus } = stateDefect(p, i);
        return plan(label, p, problem(code, httpStatus));
      }),
    );
  }
  const path = fill(route, base(0, 0).params).split('?')[0]!;
  const wrong = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !allowedMethods(path).includes(m));
  out.push(
    fc
      .constantFrom(...wrong)
      .map((method) =>
        plan(`method ${method}`, base(0, 0), problem('METHOD_NOT_ALLOWED', 405), undefined, method),
      ),
  );
  return out;
}

type Base = { params: Record<string, string>; headers: Record<string, string>; body: Row | undefined };
type StateDefect = (p: Base, idKind: number) => { label: string; code: string; httpStatus: number };

const anyId = (resource: Row, i: number) => {
  const ids = Object.values(idsOf(resource));
  return encodeURIComponent(ids[i % ids.length] as string);
};

/** Real resources in a state the operation does not allow (decisions §4, §5; spec §4.6, §7). */
const STATE_DEFECTS: Record<string, StateDefect> = {
  'POST /cash-in': (p) => {
    p.body!.externalReference = h.awaiting.externalReference;
    return { label: 'duplicate externalReference', code: 'DUPLICATED_EXTERNAL_REFERENCE', httpStatus: 409 };
  },
  'POST /cash-out': (p) => {
    p.body!.externalReference = h.cancelled.externalReference;
    return {
      label: 'externalReference of a cancelled one',
      code: 'DUPLICATED_EXTERNAL_REFERENCE',
      httpStatus: 409,
    };
  },
  'POST /cash-out/batch': (p, i) => {
    const items = p.body!.items as Row[];
    items[i % items.length]!.externalReference = h.cancelled.externalReference;
    return {
      label: 'an item with the externalReference of a cancelled Cash-Out',
      code: 'DUPLICATED_EXTERNAL_REFERENCE',
      httpStatus: 409,
    };
  },
  'POST /cash-in/{id}/refund': (p, i) => {
    p.params.id = anyId(h.awaiting, i);
    return { label: 'refund of an unpaid Cash-In', code: 'REFUND_NOT_ALLOWED', httpStatus: 422 };
  },
  'POST /cash-in/{id}/cancel': (p, i) => {
    p.params.id = anyId(h.paid, i);
    return { label: 'cancel of a paid Cash-In', code: 'RULE_VIOLATION', httpStatus: 422 };
  },
  'POST /sandbox/cash-in/{id}/pay': (p, i) => {
    p.params.id = anyId(h.paid, i);
    return { label: 'paying a paid Cash-In', code: 'RULE_VIOLATION', httpStatus: 422 };
  },
  'POST /sandbox/cash-in/{id}/expire': (p, i) => {
    p.params.id = anyId(h.paid, i);
    return { label: 'expiring a paid Cash-In', code: 'RULE_VIOLATION', httpStatus: 422 };
  },
  'POST /sandbox/cash-in/{id}/return': (p, i) => {
    p.params.id = anyId(h.awaiting, i);
    return { label: 'returning an unpaid Cash-In', code: 'RULE_VIOLATION', httpStatus: 422 };
  },
  'POST /sandbox/cash-out/{id}/return': (p, i) => {
    p.params.id = anyId(h.cancelled, i);
    return { label: 'returning a cancelled Cash-Out', code: 'RULE_VIOLATION', httpStatus: 422 };
  },
  'POST /account/rebalance/top-up': (p) => {
    p.body!.amount = 1;
    return { label: 'top-up from an empty account', code: 'INSUFFICIENT_PROPRIETARY_FUNDS', httpStatus: 422 };
  },
  'POST /account/rebalance/sweep': (p) => {
    p.body!.amount = 1_000_000;
    return {
      label: 'sweep of more than the balance',
      code: 'INSUFFICIENT_TRANSACTIONAL_FUNDS',
      httpStatus: 422,
    };
  },
  'POST /admin/clients/{clientId}/cash-out/{id}/approve': (p, i) => {
    p.params.id = anyId(h.completed, i);
    return { label: 'approving a completed Cash-Out', code: 'RULE_VIOLATION', httpStatus: 422 };
  },
  'POST /admin/clients/{clientId}/cash-out/{id}/reject': (p, i) => {
    p.params.id = anyId(h.cancelled, i);
    return { label: 'rejecting a cancelled Cash-Out', code: 'RULE_VIOLATION', httpStatus: 422 };
  },
};

/** What the client sees of itself through the API (asOf aside). */
async function views(api: Integrator) {
  const read = async (path: string) => {
    const res = await api.get(path);
    expect(res.status, path).toBe(200);
    return res.json() as Promise<Row>;
  };
  const period = `from=${api.client.statementStartDate}&to=${FAR_TO}&limit=1000`;
  const { asOf: _asOf, ...balance } = await read('/account/balance');
  return {
    cashIns: (await read(`/cash-in?${period}`)).items,
    cashOuts: (await read(`/cash-out?${period}`)).items,
    balance,
    statements: await Promise.all(
      api.client.accounts.map(async (a) => (await read(`/account/${a.number}/statement?${period}`)).items),
    ),
  };
}

describe('rejected requests change nothing', () => {
  beforeAll(async () => {
    h = await clientWithHistory();
    other = await Integrator.create();
    const olderToken = h.api.token;
    // A second login: signatures over the first token are now replays with another JWT.
    (h.api as { token: string }).token = await issueToken(h.api.client);
    validSignature = await sign(h.api.client.cryptoToken, h.api.token);
    jwts = await jwtCases(h.api, other);
    signatureDefects = await signatureCases(h.api, other, olderToken);
    before = await quietState(h.api.client.clientId);
    apiViews = await views(h.api);
  });

  it('plans a defect of every kind the route can have', () => {
    for (const route of TARGETS) expect(defects(route).length, route.key).toBeGreaterThan(0);
    const withState = TARGETS.filter((r) => STATE_DEFECTS[r.key]).map((r) => r.key);
    expect(withState.sort()).toEqual(Object.keys(STATE_DEFECTS).sort());
  });

  it.each(TARGETS.map((r) => [r.key, r] as const))(
    '%s: each defect gets its documented answer',
    async (_, route) => {
      const kinds = defects(route);
      await fc.assert(
        fc.asyncProperty(fc.oneof(...kinds), async (planned) => {
          fc.pre(!planned.valid);
          const withBody =
            planned.method !== 'GET' && planned.method !== 'HEAD' && planned.body !== undefined;
          const res = await call(planned.path, {
            method: planned.method,
            headers: planned.headers,
            ...(withBody && { body: planned.body!.data }),
          });
          const answer = await answerOf(res);
          expectDocumentedAnswer(planned.method, `http://x${planned.path}`, answer);
          planned.expectAnswer(answer);
        }),
        { numRuns: RUNS_PER_DEFECT * kinds.length },
      );
    },
  );

  it('never brings a Durable Object into being for a charge locator of no client', async () => {
    const touched = vi.spyOn(ClientLedger.prototype, 'chargeLocation');
    try {
      const code = fc.oneof(fc.stringMatching(/^[A-Z0-9]{7}$/), fc.stringMatching(/^[a-z][A-Za-z0-9]{6}$/));
      const locator = fc.tuple(fc.uuid({ version: 4 }), code);
      const path = fc.constantFrom(
        '/pix/qr/',
        '/open-finance/',
        '/open-finance/{}/authorize',
        '/open-finance/{}/decline',
      );
      await fc.assert(
        fc.asyncProperty(locator, path, async ([clientId, code], where) => {
          const value = `${clientKey(clientId)}${code}`;
          const url = where.includes('{}') ? where.replace('{}', value) : `${where}${value}`;
          const answer = await answerOf(await call(url, { method: where.includes('{}') ? 'POST' : 'GET' }));
          expect(answer.status).toBe(404);
          expectDocumentedAnswer(where.includes('{}') ? 'POST' : 'GET', `http://x${url}`, answer);
        }),
        { numRuns: 40 },
      );
      expect(touched).not.toHaveBeenCalled();
      // A locator of a real client does reach its ledger: the spy is listening.
      await call(`/pix/qr/${clientKey(h.api.client.clientId)}${h.awaiting.internalCode}`);
      expect(touched).toHaveBeenCalledTimes(1);
    } finally {
      touched.mockRestore();
    }
  });

  it('left every table, row, list, balance and statement of the client as it was', async () => {
    const { api } = h;
    // The keys also went through rejections that reach the ledger (spec §4.1: the key is released).
    const dup = { ...cashInBody(), externalReference: h.awaiting.externalReference };
    expect((await api.post('/cash-in', dup, { 'x-idempotency-key': KEYS[0]! })).status).toBe(409);
    const refund = await api.signedPost(
      `/cash-in/${h.awaiting.internalCode}/refund`,
      { reason: 'FRAUD' },
      { 'x-idempotency-key': KEYS[1]! },
    );
    expect(refund.status).toBe(422);
    const sweep = await api.signedPost(
      '/account/rebalance/sweep',
      { amount: 1_000_000 },
      { 'x-idempotency-key': KEYS[2]! },
    );
    expect(sweep.status).toBe(422);

    expect(await quietState(api.client.clientId)).toEqual(before);
    expect(await views(api)).toEqual(apiViews);
  });

  it('still accepts, as first executions, the idempotency keys only rejected requests used', async () => {
    const { api } = h;
    const attempts: [string, () => Promise<Response>, number][] = [
      ['POST /cash-in', () => api.post('/cash-in', cashInBody(), { 'x-idempotency-key': KEYS[0]! }), 201],
      [
        'POST /cash-out',
        () => api.signedPost('/cash-out', cashOutBody({ amount: 1 }), { 'x-idempotency-key': KEYS[1]! }),
        202,
      ],
      [
        'POST /account/rebalance/sweep',
        () => api.signedPost('/account/rebalance/sweep', { amount: 1 }, { 'x-idempotency-key': KEYS[2]! }),
        201,
      ],
    ];
    for (const [name, send, expected] of attempts) {
      const res = await send();
      expect(res.status, `${name}: ${await res.clone().text()}`).toBe(expected);
      expect(res.headers.get('idempotent-replayed'), name).toBeNull();
    }
  });
});
