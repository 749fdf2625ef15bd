/**
 * Isolation (issue 9, item 4; spec §5 rule 7, §4.12 rule 1, decisions §7): client B addressing
 * client A's real resources — every id kind of every Cash-In and Cash-Out, every account, a
 * MERCHANT incident, a list cursor, an idempotency key, a charge locator — gets exactly the answer
 * it gets for a nonexistent id of the same shape (status, headers, body; only a trace id or
 * instance may differ), on every client-scoped operation that takes an id. A's storage is the same
 * before and after. The operations come from the router, so a new one with an id is covered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey } from '../../src/domain/location';
import { addIncident, dropIncident } from '../support/d1-writes';
import { ADMIN_TOKEN, call, cashInBody, Integrator, sign } from '../support/harness';
import { clientWithHistory, type History, idsOf, quietState } from './fixtures';
import { ROUTES, type Route } from './routes';

type Row = Record<string, any>;

const FAR_TO = '2100-12-31';
const ALFA = '31880826';
const GAMA = '56431109';

let a: History;
let b: Integrator;
let incidentId: string;
let beforeA: Record<string, Row[]>;
let beforeB: Record<string, Row[]>;

/** The same characters classes at the same places: an id of the same shape that names nothing. */
function sameShape(id: string): string {
  // A UUID's same shape is another UUID (a batchId, a transactionId), not merely the same classes.
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) return crypto.randomUUID();
  const pick = (set: string) => set[Math.floor(Math.random() * set.length)] as string;
  const out = id
    .replace(/[0-9]/g, () => pick('0123456789'))
    .replace(/[A-Z]/g, () => pick('ABCDEFGHJKLMNPQRSTUVWXYZ'));
  const shaped = out.replace(/[a-z]/g, () => pick('abcdefghijklmnopqrstuvwxyz'));
  return shaped === id ? sameShape(id) : shaped;
}

interface Seen {
  status: number;
  headers: [string, string][];
  body: unknown;
}

/** What an integrator can observe of an answer, minus what legitimately names the request. */
async function observe(res: Response): Promise<Seen> {
  const text = await res.text();
  let body: unknown = text;
  if (text.startsWith('{')) {
    const { traceId: _t, instance: _i, ...rest } = JSON.parse(text) as Row;
    body = rest;
  }
  const headers = [...res.headers].filter(([name]) => name !== 'x-request-id');
  return { status: res.status, headers, body };
}

/** A's resources each operation can be aimed at, by path parameter. */
function targetsOf(route: Route): { label: string; id: string }[] {
  const name = route.params[0];
  if (route.params.length !== 1) throw new Error(`${route.key}: isolation needs a rule for ${route.params}`);
  if (name === 'number')
    return a.api.client.accounts.map((acc) => ({ label: `${acc.type} account`, id: acc.number }));
  if (name === 'batchId') return [{ label: 'settled Cash-Out batch', id: a.batch.batchId }];
  if (name !== 'id') throw new Error(`${route.key}: isolation needs a rule for {${name}}`);
  if (route.template.startsWith('/health')) return [{ label: 'MERCHANT incident', id: incidentId }];
  if (route.template.includes('recurrences'))
    return [
      { label: 'approved recurrence by recurrenceId', id: a.recurrence.recurrenceId },
      { label: 'approved recurrence by externalReference', id: a.recurrence.externalReference },
    ];
  const resources: [string, Row][] = route.template.includes('cash-out')
    ? [
        ['completed Cash-Out', a.completed],
        ['cancelled Cash-Out', a.cancelled],
      ]
    : [
        ['awaiting Cash-In', a.awaiting],
        ['paid Cash-In', a.paid],
        ['refunded Cash-In', a.refunded!],
      ];
  return resources.flatMap(([label, r]) =>
    Object.entries(idsOf(r)).map(([kind, id]) => ({ label: `${label} by ${kind}`, id })),
  );
}

async function asB(route: Route, id: string): Promise<Response> {
  const path = route.template.replace(/\{\w+\}/, encodeURIComponent(id));
  const query = route.query.includes('from') ? `?from=${b.client.statementStartDate}&to=${FAR_TO}` : '';
  const headers: Record<string, string> = b.headers();
  if (route.spec.auth === 'signed') headers.digitalsignature = await sign(b.client.cryptoToken, b.token);
  const body = route.example ? JSON.stringify(route.example) : undefined;
  return call(`${path}${query}`, { method: route.method, headers, ...(body && { body }) });
}

/** Client-scoped operations that address something by id or account number. */
const SCOPED = ROUTES.filter(
  (r) => (r.spec.auth === 'client' || r.spec.auth === 'signed') && r.params.length > 0,
);

describe("another client's resources answer exactly like nonexistent ones", () => {
  beforeAll(async () => {
    a = await clientWithHistory({ refunded: true });
    b = await Integrator.create({ partners: [GAMA] });
    incidentId = `inc_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const now = new Date().toISOString();
    const incident = {
      incidentId,
      origin: { type: 'MERCHANT', id: a.api.client.clientId, displayName: 'Loja Teste Ltda' },
      operation: 'CASH_IN',
      status: 'ACTIVE',
      severity: 'MAJOR',
      confidence: 'HIGH',
      originClass: 'MERCHANT',
      startedAt: now,
      detectedAt: now,
      recoveredAt: null,
      resolvedAt: null,
      updatedAt: now,
      affectedPartners: 1,
      summary: 'Cash-In failures of one merchant',
    };
    await addIncident({
      id: incidentId,
      originType: 'MERCHANT',
      originId: a.api.client.clientId,
      operation: 'CASH_IN',
      status: 'ACTIVE',
      incident,
      affectedClientIds: [a.api.client.clientId],
      startedAt: Date.now(),
      updatedAt: Date.now(),
    });
    beforeA = await quietState(a.api.client.clientId);
    beforeB = await quietState(b.client.clientId);
  });

  afterAll(async () => {
    await dropIncident(incidentId);
  });

  it('covers every client-scoped operation that takes an id', () => {
    expect(SCOPED.map((r) => r.key).sort()).toEqual(
      expect.arrayContaining([
        'GET /account/{number}/statement',
        'GET /cash-in/{id}',
        'GET /cash-out/{id}',
        'GET /cash-out/batch/{batchId}',
        'GET /recurrences/{id}',
        'POST /recurrences/{id}/cancel',
        'POST /recurrences/{id}/charges',
        'GET /recurrences/{id}/charges',
        'POST /sandbox/cash-in/{id}/fail-attempt',
        'POST /sandbox/cash-in/{id}/payer-cancel',
        'POST /sandbox/recurrences/{id}/approve',
        'POST /sandbox/recurrences/{id}/cancel',
        'POST /sandbox/recurrences/{id}/reject',
        'GET /health/pix/incidents/{id}',
        'POST /cash-in/{id}/cancel',
        'POST /cash-in/{id}/refund',
        'POST /sandbox/accounts/{number}/deposit',
        'POST /sandbox/cash-in/{id}/expire',
        'POST /sandbox/cash-in/{id}/pay',
        'POST /sandbox/cash-in/{id}/return',
        'POST /sandbox/cash-out/{id}/return',
      ]),
    );
    for (const route of SCOPED) expect(targetsOf(route).length, route.key).toBeGreaterThan(0);
  });

  it('A reaches each of its own ids (the ids are real)', async () => {
    for (const route of SCOPED.filter((r) => r.method === 'GET')) {
      for (const { label, id } of targetsOf(route)) {
        const path = route.template.replace(/\{\w+\}/, encodeURIComponent(id));
        const query = route.query.includes('from')
          ? `?from=${a.api.client.statementStartDate}&to=${FAR_TO}`
          : '';
        expect((await a.api.get(`${path}${query}`)).status, `${route.key} ${label}`).toBe(200);
      }
    }
  });

  it.each(SCOPED.map((r) => [r.key, r] as const))(
    '%s: B gets for A’s ids what it gets for no id',
    async (_, route) => {
      for (const { label, id } of targetsOf(route)) {
        const foreign = await observe(await asB(route, id));
        const missing = await observe(await asB(route, sameShape(id)));
        expect(foreign.status, `${label} ${id}`).toBeGreaterThanOrEqual(400);
        // A read of another client's resource says it is not there (e.g. CASHOUT_NOT_FOUND).
        if (route.method === 'GET') {
          expect(foreign.status, `${label} ${id}`).toBe(404);
          expect((foreign.body as Row).code, `${label} ${id}`).toMatch(/_NOT_FOUND$/);
        }
        expect(foreign, `${route.key} with A's ${label} ${id}`).toEqual(missing);
      }
    },
  );

  it("B's lists, summaries and health picture show nothing of A's", async () => {
    const period = `from=${b.client.statementStartDate}&to=${FAR_TO}`;
    for (const path of ['/cash-in', '/cash-out']) {
      expect(((await (await b.get(`${path}?${period}`)).json()) as Row).items, path).toEqual([]);
      expect(((await (await b.get(`${path}/summary?${period}`)).json()) as Row).totals, path).toEqual({});
    }
    const incidents = (await (await b.get('/health/pix/incidents')).json()) as Row;
    expect(incidents.items.map((i: Row) => i.incidentId)).not.toContain(incidentId);
    const picture = await b.get('/health/pix');
    if (picture.status === 200) expect(await picture.text()).not.toContain(incidentId);
    const own = (await (await a.api.get('/health/pix/incidents')).json()) as Row;
    expect(own.items.map((i: Row) => i.incidentId)).toContain(incidentId);
  });

  it("A's list cursor is, for B, any forged cursor of the same shape", async () => {
    const period = `from=${a.api.client.statementStartDate}&to=${FAR_TO}&limit=1`;
    const page = (await (await a.api.get(`/cash-in?${period}`)).json()) as Row;
    expect(page.nextCursor).toBeDefined();
    const foreign = await observe(
      await b.get(`/cash-in?${period}&cursor=${encodeURIComponent(page.nextCursor)}`),
    );
    const forged = await observe(
      await b.get(`/cash-in?${period}&cursor=${encodeURIComponent(sameShape(page.nextCursor))}`),
    );
    expect(foreign.status).toBe(400);
    expect(foreign).toEqual(forged);
  });

  it('a rebalance at a partner only A has answers like one at no partner at all', async () => {
    const rebalance = async (ispb: string) =>
      observe(await b.signedPost('/account/rebalance/sweep', { amount: 1, ispb }));
    const foreign = await rebalance(ALFA);
    expect(foreign.status).toBe(400);
    expect(foreign).toEqual(await rebalance('99999999'));
  });

  it("a charge locator with B's key and A's code is no charge", async () => {
    for (const path of ['/pix/qr', '/open-finance']) {
      const locator = (code: string) => `${path}/${clientKey(b.client.clientId)}${code}`;
      const foreign = await observe(await call(locator(a.awaiting.internalCode)));
      expect(foreign.status).toBe(404);
      expect(foreign).toEqual(await observe(await call(locator(sameShape(a.awaiting.internalCode)))));
    }
  });

  it("B's credentials open no operator route, whatever client it names", async () => {
    for (const route of ROUTES.filter((r) => r.spec.auth === 'operator')) {
      const path = (clientId: string) =>
        route.template
          .replace('{clientId}', clientId)
          .replace('{id}', a.completed.internalCode)
          .replace('{eventId}', 'evt_x')
          .replace('{operatorId}', 'op_0000000000000000')
          .replace('{ispb}', '99999999');
      const send = (clientId: string) =>
        call(path(clientId), {
          method: route.method,
          headers: b.headers(),
          body: route.example ? '{}' : undefined,
        });
      const foreign = await observe(await send(a.api.client.clientId));
      expect(foreign.status, route.key).toBe(401);
      expect((foreign.body as Row).code).toBe('UNAUTHORIZED');
      expect(foreign, route.key).toEqual(await observe(await send(sameShape(a.api.client.clientId))));
    }
    // The operator itself does reach A: the 401 above is about B's credentials.
    const res = await call(`/admin/clients/${a.api.client.clientId}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
  });

  it("left A's and B's storage exactly as it was", async () => {
    expect(await quietState(a.api.client.clientId)).toEqual(beforeA);
    expect(await quietState(b.client.clientId)).toEqual(beforeB);
  });

  it('an idempotency key A used means nothing to another client', async () => {
    const c = await Integrator.create();
    const key = crypto.randomUUID();
    const body = cashInBody({ includeQrCodeImage: false });
    const first = await a.api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(first.status).toBe(201);
    const other = await c.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    const [mine, theirs] = [(await first.json()) as Row, (await other.json()) as Row];
    expect(theirs.transactionId).not.toBe(mine.transactionId);
    const replay = await a.api.post('/cash-in', body, { 'x-idempotency-key': key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as Row).transactionId).toBe(mine.transactionId);
  });
});
