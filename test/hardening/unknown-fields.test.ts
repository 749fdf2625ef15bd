/**
 * Request bodies are strict, for operators and integrators alike: a field the operation does not
 * declare answers 400 VALIDATION_ERROR naming it (with the field it resembles), and changes nothing.
 * A misspelt `rateLimitPerSec` answered 200 and left the limit unset while the operator believed it
 * set. The OpenAPI document promises the same: `additionalProperties: false` on every object of
 * every request body, except partner callbacks (a bank's facts are never refused for an extra field).
 */
import { describe, expect, it } from 'vitest';
import { accountOf } from '../support/account';
import { cashOutBody } from '../support/cash-out';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { admin, call, cashInBody, Integrator, onboardClient } from '../support/harness';

interface Problem {
  status: number;
  code: string;
  errors: Record<string, string[]>;
}

async function expectUnknown(res: Response, field: string, suggestion?: string): Promise<Problem> {
  const body = (await res.json()) as Problem;
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(body.errors)).toEqual([field]);
  const name = field.split('.').pop();
  expect(body.errors[field]).toEqual([
    `${name} is not a field of this request${suggestion ? ` (did you mean ${suggestion}?)` : ''}`,
  ]);
  return body;
}

describe('operator bodies', () => {
  it('PATCH /admin/clients/{id} with an unknown field answers 400 naming it and changes nothing', async () => {
    const client = await onboardClient();
    const path = `/admin/clients/${client.clientId}`;
    const before = await (await admin(path)).json();
    await expectUnknown(
      await admin(path, 'PATCH', { rateLimitPerSec: 5 }),
      'rateLimitPerSec',
      'rateLimitPerSecond',
    );
    await expectUnknown(await admin(path, 'PATCH', { name: 'Outro Nome' }), 'name');
    // Beside a valid field, the valid one is not applied either: the request is refused whole.
    await expectUnknown(
      await admin(path, 'PATCH', { approvalThreshold: 50, limits: { daily: 100, dayly: 100 } }),
      'limits.dayly',
      'daily',
    );
    expect(await (await admin(path)).json()).toEqual(before);
    // The same edit, spelt right, applies.
    const ok = await admin(path, 'PATCH', { rateLimitPerSecond: 5 });
    expect(ok.status).toBe(200);
    expect(((await (await admin(path)).json()) as { rateLimitPerSecond: number }).rateLimitPerSecond).toBe(5);
  });

  it('every other operator body refuses an unknown field', async () => {
    const client = await onboardClient();
    await expectUnknown(await admin('/admin/clients', 'POST', { name: 'Loja', nmae: 'x' }), 'nmae', 'name');
    await expectUnknown(
      await admin('/admin/partners/42273459/faults', 'POST', { operation: 'CASH_OUT', minutes: 1, rate: 1 }),
      'rate',
    );
    await expectUnknown(
      await admin(`/admin/partners/${FAKE_PSP_ISPB}/webhook`, 'PUT', {
        baseUrl: 'https://a.example',
        path: '/x',
      }),
      'path',
    );
    await expectUnknown(
      await admin(`/admin/clients/${client.clientId}/archive`, 'POST', {
        before: '2026-01-01T00:00:00Z',
        dryRun: true,
      }),
      'dryRun',
    );
    await expectUnknown(
      await admin('/admin/health/analyzer/advance', 'POST', { until: '2026-01-01T00:00:00Z', force: true }),
      'force',
    );
    await expectUnknown(
      await admin('/admin/health/observations', 'POST', {
        observations: [
          {
            id: 'o-1',
            at: '2026-01-01T00:00:00Z',
            clientId: client.clientId,
            operation: 'CASH_IN',
            partnerIspb: '00000001',
            event: 'CREATED',
            latency: 5,
          },
        ],
      }),
      'observations.0.latency',
      'latencyMs',
    );
  });
});

describe('client bodies', () => {
  it('refuse an unknown field, top-level or nested, before anything is created', async () => {
    const api = await Integrator.create();
    await expectUnknown(
      await api.post('/cash-in', cashInBody({ expirationInMinute: 30 })),
      'expirationInMinute',
      'expirationInMinutes',
    );
    await expectUnknown(
      await api.post(
        '/cash-in',
        cashInBody({ payer: { name: 'Maria', document: '12345678909', email: 'm@x' } }),
      ),
      'payer.email',
    );
    const body = cashOutBody();
    (body.payee as { destination: Record<string, unknown> }).destination.bank = '001';
    await expectUnknown(await api.signedPost('/cash-out', body), 'payee.destination.bank', 'bankAccount');
    await expectUnknown(
      await api.signedPost('/account/rebalance/top-up', { amount: 1, currency: 'BRL' }),
      'currency',
    );
    const number = accountOf(api, 'TRANSACTIONAL').number;
    await expectUnknown(
      await api.post(`/sandbox/accounts/${number}/deposit`, { amount: 1, note: 'x' }),
      'note',
    );
    const login = await call('/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clientId: api.client.clientId,
        clientSecret: api.client.clientSecret,
        scope: 'all',
      }),
    });
    await expectUnknown(login, 'scope');
    const list = (await (await api.get('/cash-in?from=2020-01-01&to=2100-12-31')).json()) as {
      items: unknown[];
    };
    expect(list.items).toEqual([]);
  });
});

describe('the OpenAPI document says the same', () => {
  type Node = Record<string, unknown>;
  it('declares additionalProperties: false on every request-body object but partner callbacks', async () => {
    const doc = (await (await call('/openapi.json')).json()) as Node & {
      paths: Record<string, Record<string, Node>>;
      components: { schemas: Record<string, Node> };
    };
    const resolve = (node: Node): Node =>
      typeof node.$ref === 'string' ? resolve(doc.components.schemas[node.$ref.split('/').pop()!]!) : node;
    const loose: string[] = [];
    const walk = (node: Node, where: string, seen: Set<Node>) => {
      const schema = resolve(node);
      if (seen.has(schema)) return;
      seen.add(schema);
      if (schema.type === 'object' && schema.properties && schema.additionalProperties !== false)
        loose.push(where);
      for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, Node>))
        walk(child, `${where}.${key}`, seen);
      if (schema.items) walk(schema.items as Node, `${where}[]`, seen);
      for (const list of ['oneOf', 'anyOf', 'allOf'])
        for (const option of (schema[list] ?? []) as Node[]) walk(option, where, seen);
    };
    const partner: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const body = (operation.requestBody as Node | undefined)?.content as Record<string, Node> | undefined;
        const schema = body?.['application/json']?.schema as Node | undefined;
        if (!schema) continue;
        const target = path.startsWith('/partners/') ? partner : loose;
        const before = loose.length;
        walk(schema, `${method.toUpperCase()} ${path}`, new Set());
        if (target === partner) partner.push(...loose.splice(before));
      }
    }
    expect(loose).toEqual([]);
    // A bank's callback keeps its extra fields: they are facts to record, not input to refuse.
    expect(partner.length).toBeGreaterThan(0);
  });
});
