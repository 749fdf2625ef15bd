/**
 * Real error responses against the served document: each status and `code` must be documented for
 * the operation that answered it, including the three bodies that are not plain Problem Details.
 */
import { describe, expect, it } from 'vitest';
import { cashInPaid } from '../../src/api/cash-in/shared';
import { createCashIn } from '../support/cash-in';
import { cashOutBody } from '../support/cash-out';
import { admin, call, cashInBody, Integrator } from '../support/harness';
import { expectDocumented, servedDocument, validate } from './conformance';

describe('error responses conform to the document', () => {
  it('the checker itself rejects undocumented fields, values and formats', async () => {
    const doc = await servedDocument();
    const cashIn = { $ref: '#/components/schemas/CashIn' };
    expect(validate(doc, cashIn, cashInPaid)).toEqual([]);
    expect(validate(doc, cashIn, { ...cashInPaid, extra: 1 })).not.toEqual([]);
    expect(validate(doc, cashIn, { ...cashInPaid, status: 'DONE' })).not.toEqual([]);
    expect(validate(doc, cashIn, { ...cashInPaid, paidAt: 'yesterday' })).not.toEqual([]);
  });

  it('400 VALIDATION_ERROR and IDEMPOTENCY_KEY_INVALID', async () => {
    const api = await Integrator.create();
    const invalid = await expectDocumented(
      await api.post('/cash-in', cashInBody({ amount: 0.001 })),
      'post',
      '/cash-in',
    );
    expect(invalid?.code).toBe('VALIDATION_ERROR');
    const key = await expectDocumented(
      await api.post('/cash-in', cashInBody(), { 'x-idempotency-key': 'k'.repeat(101) }),
      'post',
      '/cash-in',
    );
    expect(key?.code).toBe('IDEMPOTENCY_KEY_INVALID');
    const query = await expectDocumented(
      await api.get('/cash-in?from=yesterday&to=2100-01-01'),
      'get',
      '/cash-in',
    );
    expect(query?.code).toBe('VALIDATION_ERROR');
  });

  it('401: JWT without body, ApplicationToken without code, login {message}, DigitalSignature, operator', async () => {
    const api = await Integrator.create();
    const noJwt = await call('/cash-in/ABCDEFG');
    expect(noJwt.headers.get('www-authenticate')).toBe('Bearer');
    expect(await expectDocumented(noJwt, 'get', '/cash-in/{id}')).toBeUndefined();
    const badJwt = await call('/cash-out', { method: 'POST', headers: { authorization: 'Bearer x.y.z' } });
    expect(await expectDocumented(badJwt, 'post', '/cash-out')).toBeUndefined();

    const missing = await expectDocumented(
      await call('/cash-in/ABCDEFG', { headers: { authorization: `Bearer ${api.token}` } }),
      'get',
      '/cash-in/{id}',
    );
    expect(missing).not.toHaveProperty('code');
    const invalid = await expectDocumented(
      await api.get('/account/balance', { applicationtoken: 'not-a-guid' }),
      'get',
      '/account/balance',
    );
    expect(invalid?.title).toBe('ApplicationToken is invalid');

    const login = await expectDocumented(
      await call('/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: api.client.clientId, clientSecret: crypto.randomUUID() }),
      }),
      'post',
      '/auth/token',
    );
    expect(login).toEqual({ message: expect.any(String) });

    const unsigned = await expectDocumented(await api.post('/cash-out', cashOutBody()), 'post', '/cash-out');
    expect(unsigned?.code).toBe('DIGITAL_SIGNATURE_REQUIRED');
    const wrong = await expectDocumented(
      await api.post('/cash-in/ABCDEFG/refund', { reason: 'FRAUD' }, { digitalsignature: 'ab'.repeat(32) }),
      'post',
      '/cash-in/{id}/refund',
    );
    expect(wrong?.code).toBe('DIGITAL_SIGNATURE_INVALID');

    const operator = await expectDocumented(
      await call(`/admin/clients/${api.client.clientId}`, { headers: { authorization: 'Bearer nope' } }),
      'get',
      '/admin/clients/{clientId}',
    );
    expect(operator?.code).toBe('UNAUTHORIZED');
  });

  it('403, 404, 409 and 422', async () => {
    const api = await Integrator.create();
    expect((await admin(`/admin/clients/${api.client.clientId}/crypto-token`, 'DELETE')).status).toBe(204);
    const noCrypto = await expectDocumented(
      await api.signedPost('/cash-out', cashOutBody()),
      'post',
      '/cash-out',
    );
    expect(noCrypto?.code).toBe('CRYPTO_TOKEN_NOT_CONFIGURED');

    const cashInMissing = await expectDocumented(await api.get('/cash-in/NOPE123'), 'get', '/cash-in/{id}');
    expect(cashInMissing?.code).toBe('CASHIN_NOT_FOUND');
    const cashOutMissing = await expectDocumented(
      await api.get('/cash-out/NOPE123'),
      'get',
      '/cash-out/{id}',
    );
    expect(cashOutMissing?.code).toBe('CASHOUT_NOT_FOUND');
    const accountMissing = await expectDocumented(
      await api.get('/account/NOPE-1/statement?from=2100-01-01&to=2100-01-02'),
      'get',
      '/account/{number}/statement',
    );
    expect(accountMissing?.code).toBe('ACCOUNT_NOT_FOUND');

    const first = await createCashIn(api);
    const duplicate = await expectDocumented(
      await api.post('/cash-in', cashInBody({ externalReference: first.externalReference })),
      'post',
      '/cash-in',
    );
    expect(duplicate?.code).toBe('DUPLICATED_EXTERNAL_REFERENCE');

    const signed = await Integrator.create();
    const unpaid = await createCashIn(signed);
    const refund = await expectDocumented(
      await signed.signedPost(`/cash-in/${unpaid.internalCode}/refund`, { reason: 'FRAUD' }),
      'post',
      '/cash-in/{id}/refund',
    );
    expect(refund?.code).toBe('REFUND_NOT_ALLOWED');
    const before = await expectDocumented(
      await signed.get('/account/balance?at=2001-01-01'),
      'get',
      '/account/balance',
    );
    expect(before?.code).toBe('RETROACTIVE_BALANCE_NOT_IMPLEMENTED');
    const cancelled = await signed.post(`/cash-in/${unpaid.internalCode}/cancel`, {});
    expect(cancelled.status).toBe(200);
    const again = await expectDocumented(
      await signed.post(`/cash-in/${unpaid.internalCode}/cancel`, {}),
      'post',
      '/cash-in/{id}/cancel',
    );
    expect(again?.code).toBe('RULE_VIOLATION');
  });
});
