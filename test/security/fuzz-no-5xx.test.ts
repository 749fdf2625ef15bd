import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, Integrator, sign } from '../support/harness';

const ROUTES: [string, string][] = [
  ['POST', '/auth/token'],
  ['POST', '/cash-in'],
  ['GET', '/cash-in'],
  ['GET', '/cash-in/summary'],
  ['GET', '/cash-in/{id}'],
  ['POST', '/cash-in/{id}/refund'],
  ['POST', '/cash-in/{id}/cancel'],
  ['POST', '/sandbox/cash-in/{id}/pay'],
  ['POST', '/sandbox/cash-in/{id}/return'],
  ['POST', '/sandbox/cash-in/{id}/expire'],
  ['GET', '/pix/qr/{id}'],
  ['GET', '/open-finance/{id}'],
  ['POST', '/open-finance/{id}/authorize'],
  ['POST', '/admin/clients'],
  ['GET', '/admin/clients/{id}'],
  ['PATCH', '/admin/clients/{id}'],
  ['POST', '/admin/partners/{id}/faults'],
  ['DELETE', '/admin/clients/{id}/crypto-token'],
  ['GET', '/nope/{id}'],
];

const segment = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '..', '%00', '%F0%9F%92%A9', 'A'.repeat(300), '31880826', crypto.randomUUID()),
);

const body = fc.oneof(
  fc.json().map((j) => new TextEncoder().encode(j)),
  fc
    .jsonValue()
    .map((v) =>
      new TextEncoder().encode(JSON.stringify({ amount: v, payer: v, reason: v, name: v, limits: v })),
    ),
  fc.uint8Array({ maxLength: 200 }),
  fc.constant(new TextEncoder().encode(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)),
);

const query = fc.dictionary(
  fc.constantFrom('from', 'to', 'limit', 'order', 'cursor', 'x'),
  fc.string({ maxLength: 30 }),
  {
    maxKeys: 4,
  },
);

/** Error answers that are not Problem Details by contract (spec §5). */
function documentedException(status: number, type: string | null, text: string): boolean {
  if (status === 401 && text === '') return true; // JWT failures: no body
  if (status === 401 && type?.startsWith('application/json') && /^\{"message":/.test(text)) return true; // login
  if (status === 410 && type?.startsWith('text/html')) return true; // open-finance page of a closed charge
  return false;
}

describe('fuzzing every route (issue: no input makes it answer 5xx)', () => {
  it('answers every random request with < 500 and Problem Details on errors', async () => {
    const api = await Integrator.create();
    const signature = await sign(api.client.cryptoToken, api.token);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'route'),
        segment,
        query,
        body,
        fc.constantFrom('none', 'client', 'signed', 'admin', 'garbage'),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined),
        async ([routeMethod, template], methodChoice, id, params, bytes, auth, contentType) => {
          const method = methodChoice === 'route' ? routeMethod : methodChoice;
          const path = template.replace('{id}', id);
          const headers: Record<string, string> = {};
          if (contentType) headers['content-type'] = contentType;
          if (auth === 'client' || auth === 'signed')
            Object.assign(headers, api.headers(), contentType ? { 'content-type': contentType } : {});
          if (auth === 'signed') headers.digitalsignature = signature;
          if (auth === 'admin') headers.authorization = 'Bearer test-admin-token';
          if (auth === 'garbage')
            Object.assign(headers, {
              authorization: 'Bearer a.b.c',
              applicationtoken: 'x',
              digitalsignature: 'zz',
            });
          const qs = new URLSearchParams(params).toString();
          const res = await call(`${path}${qs ? `?${qs}` : ''}`, {
            method,
            headers,
            ...(method !== 'GET' && method !== 'HEAD' && { body: bytes }),
          });
          const text = await res.text();
          expect(res.status, `${method} ${path}`).toBeLessThan(500);
          if (res.status >= 400 && !documentedException(res.status, res.headers.get('content-type'), text)) {
            expect(res.headers.get('content-type'), `${method} ${path} ${res.status}`).toBe(
              'application/problem+json',
            );
            const problem = JSON.parse(text);
            expect(problem.status).toBe(res.status);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
