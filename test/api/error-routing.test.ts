import { describe, expect, it } from 'vitest';
import { call, cashInBody, Integrator } from '../support/harness';
import { withLedgerTableGone } from '../support/storage-faults';

describe('routing and unexpected errors (spec §7)', () => {
  it('an unknown route is a 404 Problem Details', async () => {
    const res = await call('/nope');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
  });

  it('a wrong method is a 405 Problem Details with Allow', async () => {
    const res = await call('/auth/token', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(((await res.json()) as { code: string }).code).toBe('METHOD_NOT_ALLOWED');
  });

  it('every response carries a request id', async () => {
    const res = await call('/nope');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an unexpected failure is 500 INTERNAL_ERROR with traceId and instance, nothing internal', async () => {
    const api = await Integrator.create();
    expect((await api.post('/cash-in', cashInBody())).status).toBe(201);
    await withLedgerTableGone(api.client.clientId, 'cash_ins', async () => {
      const res = await api.get('/cash-in/ABCDEFG');
      expect(res.status).toBe(500);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.code).toBe('INTERNAL_ERROR');
      expect(body.traceId).toBe(res.headers.get('x-request-id'));
      expect(body.instance).toBe('/cash-in/ABCDEFG');
      expect(JSON.stringify(body)).not.toMatch(/cash_ins|sqlite|SQL|stack|Error:/i);
    });
  });
});
