/**
 * Unknown query parameters are refused by name on every route that an integrator or the operator
 * calls, like unknown body fields: a misspelt filter must not answer every row. The cases come from
 * the router (./routes.ts), so a new route is checked without being listed here; a bank's callbacks
 * and the BR Code location keep what a bank adds to a URL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { refusesUnknownQuery } from '../../src/openapi/operation';
import { ADMIN_TOKEN, call, Integrator, sign } from '../support/harness';
import { answerOf, expectDocumentedAnswer, ROUTES, type Route } from './routes';

let api: Integrator;
let signature: string;

beforeAll(async () => {
  api = await Integrator.create();
  signature = await sign(api.client.cryptoToken, api.token);
});

/** Valid credentials for the route's kind, so the answer is the query's and not the caller's. */
function headers(route: Route): Record<string, string> {
  if (route.spec.auth === 'operator') return { authorization: `Bearer ${ADMIN_TOKEN}` };
  return { ...api.headers(), digitalsignature: signature };
}

const path = (route: Route) =>
  route.template.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'clientId' ? api.client.clientId : name === 'number' ? api.client.accounts[0]!.number : 'x1',
  );

/** The documented query a list or summary needs (valid), so only the unknown name is wrong. */
const valid = (route: Route) => (route.query.includes('from') ? 'from=2026-11-01&to=2026-11-30&' : '');

const strict = ROUTES.filter((route) => refusesUnknownQuery(route.spec));

describe('unknown query parameters', () => {
  it('the route table gives cases: every list and summary is among them', () => {
    const keys = strict.map((r) => r.key);
    for (const key of ['GET /cash-in', 'GET /cash-out', 'GET /cash-in/summary', 'GET /cash-out/summary'])
      expect(keys).toContain(key);
    expect(strict.length).toBeGreaterThan(40);
    expect(ROUTES.filter((r) => !refusesUnknownQuery(r.spec)).map((r) => r.key)).toEqual([
      'GET /pix/qr/{locator}',
      'GET /pix/rec/{locator}',
      // Pix, and Pix Automático's recurrences and recurring charges: a bank's callbacks.
      'POST /partners/{ispb}/webhook/pix',
      'POST /partners/{ispb}/webhook/rec',
      'POST /partners/{ispb}/webhook/cobr',
      'POST /partners/{ispb}/webhook/{secret}/pix',
      'POST /partners/{ispb}/webhook/{secret}/rec',
      'POST /partners/{ispb}/webhook/{secret}/cobr',
    ]);
  });

  it.each(strict.map((route) => [route.key, route] as const))(
    '%s: 400 VALIDATION_ERROR naming it',
    async (_, route) => {
      const url = `${path(route)}?${valid(route)}nonsense=1`;
      const res = await call(url, { method: route.method, headers: headers(route) });
      const body = expectDocumentedAnswer(route.method, `http://x${url}`, await answerOf(res));
      expect(res.status, url).toBe(400);
      expect(body?.code).toBe('VALIDATION_ERROR');
      expect(body?.errors).toEqual({ nonsense: ['nonsense is not a query parameter of this operation'] });
    },
  );

  it('a list filtered by a parameter it does not have is refused, not answered in full', async () => {
    const res = await api.get('/cash-in?from=2026-11-01&to=2026-11-30&status=PAGO');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors).toEqual({ status: ['status is not a query parameter of this operation'] });
  });

  it('a close name gets a suggestion, and each unknown name is named', async () => {
    const res = await api.get('/cash-out?from=2026-11-01&to=2026-11-30&limt=5&Order=desc&nonsense=1');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors).toEqual({
      limt: ['limt is not a query parameter of this operation (did you mean limit?)'],
      Order: ['Order is not a query parameter of this operation (did you mean order?)'],
      nonsense: ['nonsense is not a query parameter of this operation'],
    });
  });

  it('unauthenticated callers still get 401 first, and documented parameters still work', async () => {
    expect((await call('/cash-in?from=2026-11-01&to=2026-11-30&nonsense=1')).status).toBe(401);
    expect((await api.get('/cash-in?from=2026-11-01&to=2026-11-30&limit=5&order=desc')).status).toBe(200);
  });

  it('the BR Code location keeps what a payer’s bank adds to its URL', async () => {
    const res = await call('/pix/qr/nosuchlocator?DPP=2026-11-30&codMun=5300108');
    expect(res.status).toBe(404);
  });
});
