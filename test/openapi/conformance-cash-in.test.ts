/** Real Cash-In responses, every status of the lifecycle, against the served OpenAPI document. */
import { describe, expect, it } from 'vitest';
import type { CashInCreatedBody } from '../../src/api/cash-in/create-cash-in';
import { waitFor } from '../support/cash-in';
import { cashInBody, Integrator } from '../support/harness';
import { expectDocumented } from './conformance';

const PERIOD = 'from=2020-01-01&to=2100-12-31';

describe('Cash-In responses conform to the document', () => {
  it('create (BR Code with QR image, open finance), get, list and summary', async () => {
    const api = await Integrator.create();
    const qr = await expectDocumented(await api.post('/cash-in', cashInBody()), 'post', '/cash-in');
    expect(qr?.pixData.qrCodeImageBase64).toBeTypeOf('string');
    const openFinance = await expectDocumented(
      await api.post(
        '/cash-in',
        cashInBody({ openFinance: { redirectUrl: 'https://loja.example.com.br/retorno' } }),
      ),
      'post',
      '/cash-in',
    );
    expect(openFinance?.openFinanceData.paymentUrl).toBeTypeOf('string');

    const awaiting = await expectDocumented(
      await api.get(`/cash-in/${qr?.internalCode}`),
      'get',
      '/cash-in/{id}',
    );
    expect(awaiting?.status).toBe('AWAITING_PAYMENT');

    const paid = await expectDocumented(
      await api.post(`/sandbox/cash-in/${qr?.internalCode}/pay`, {}),
      'post',
      '/sandbox/cash-in/{id}/pay',
    );
    expect(paid?.settlement).toBeDefined();
    await expectDocumented(await api.get(`/cash-in/${paid?.endToEndId}`), 'get', '/cash-in/{id}');

    const list = await expectDocumented(await api.get(`/cash-in?${PERIOD}&limit=1`), 'get', '/cash-in');
    expect(list?.nextCursor).toBeTypeOf('string');
    const next = await api.get(`/cash-in?${PERIOD}&limit=1&cursor=${encodeURIComponent(list?.nextCursor)}`);
    expect((await expectDocumented(next, 'get', '/cash-in'))?.previousCursor).toBeTypeOf('string');

    const summary = await expectDocumented(
      await api.get(`/cash-in/summary?${PERIOD}`),
      'get',
      '/cash-in/summary',
    );
    expect(summary?.totals.paid.count).toBe(1);
  });

  it('refund 202, then the REFUNDED Cash-In; cancel and expire', async () => {
    const api = await Integrator.create();
    const created = await expectDocumented(await api.post('/cash-in', cashInBody()), 'post', '/cash-in');
    await api.post(`/sandbox/cash-in/${created?.internalCode}/pay`, {});
    const refund = await api.signedPost(`/cash-in/${created?.internalCode}/refund`, { reason: 'FRAUD' });
    expect(refund.status).toBe(202);
    await expectDocumented(refund, 'post', '/cash-in/{id}/refund');
    const refunded = await waitFor(
      () =>
        api.get(`/cash-in/${created?.internalCode}`).then((r) => r.json() as Promise<Record<string, any>>),
      (c) => c.status === 'REFUNDED',
    );
    expect(refunded.status).toBe('REFUNDED');
    await expectDocumented(await api.get(`/cash-in/${created?.internalCode}`), 'get', '/cash-in/{id}');

    const toCancel = (await (await api.post('/cash-in', cashInBody())).json()) as CashInCreatedBody;
    const cancelled = await expectDocumented(
      await api.post(`/cash-in/${toCancel.internalCode}/cancel`, {}),
      'post',
      '/cash-in/{id}/cancel',
    );
    expect(cancelled?.cancelledAt).toBeTypeOf('string');

    const toExpire = (await (await api.post('/cash-in', cashInBody())).json()) as CashInCreatedBody;
    const expired = await expectDocumented(
      await api.post(`/sandbox/cash-in/${toExpire.internalCode}/expire`, {}),
      'post',
      '/sandbox/cash-in/{id}/expire',
    );
    expect(expired?.status).toBe('EXPIRED');

    const toReturn = (await (await api.post('/cash-in', cashInBody())).json()) as CashInCreatedBody;
    await api.post(`/sandbox/cash-in/${toReturn.internalCode}/pay`, {});
    const returned = await expectDocumented(
      await api.post(`/sandbox/cash-in/${toReturn.internalCode}/return`, { reason: 'OTHER' }),
      'post',
      '/sandbox/cash-in/{id}/return',
    );
    expect(returned?.reason).toBe('OTHER');

    const summary = await expectDocumented(
      await api.get(`/cash-in/summary?${PERIOD}`),
      'get',
      '/cash-in/summary',
    );
    expect(Object.keys(summary?.totals ?? {}).sort()).toEqual(['cancelled', 'pending', 'refunded']);
  });

  it('an idempotent replay carries the documented Idempotent-Replayed header', async () => {
    const api = await Integrator.create();
    const body = cashInBody({ includeQrCodeImage: false });
    const headers = { 'x-idempotency-key': crypto.randomUUID() };
    await api.post('/cash-in', body, headers);
    const replay = await api.post('/cash-in', body, headers);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await expectDocumented(replay, 'post', '/cash-in');
  });
});
