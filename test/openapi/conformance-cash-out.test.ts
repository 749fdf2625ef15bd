/** Real Cash-Out and account responses against the served OpenAPI document. */
import { describe, expect, it } from 'vitest';
import { accountOf, FAR_TO, rebalance } from '../support/account';
import { cashOutBody, magicKey, settled } from '../support/cash-out';
import { Integrator } from '../support/harness';
import { expectDocumented } from './conformance';

const PERIOD = 'from=2020-01-01&to=2100-12-31';

describe('Cash-Out responses conform to the document', () => {
  it('create 202; get COMPLETED, CANCELLED and REFUNDED; list and summary', async () => {
    const api = await Integrator.create();
    const transactional = accountOf(api, 'TRANSACTIONAL');
    await expectDocumented(
      await api.post(`/sandbox/accounts/${transactional.number}/deposit`, { amount: 500 }),
      'post',
      '/sandbox/accounts/{number}/deposit',
    );

    const accepted = await expectDocumented(
      await api.signedPost('/cash-out', cashOutBody({ amount: 25 })),
      'post',
      '/cash-out',
    );
    const failed = await expectDocumented(
      await api.signedPost(
        '/cash-out',
        cashOutBody({
          payee: { name: 'Ana', document: '12345678909', destination: magicKey('PIX_KEY_NOT_FOUND') },
        }),
      ),
      'post',
      '/cash-out',
    );
    const toBank = await expectDocumented(
      await api.signedPost(
        '/cash-out',
        cashOutBody({
          payee: {
            name: 'Carlos Pereira',
            document: '11222333000181',
            destination: {
              type: 'BANK_ACCOUNT',
              bankAccount: { ispb: '60746948', branch: '1234', account: '56789-0' },
            },
          },
        }),
      ),
      'post',
      '/cash-out',
    );

    expect((await settled(api, accepted?.transactionId)).status).toBe('COMPLETED');
    expect((await settled(api, failed?.transactionId)).status).toBe('CANCELLED');
    expect((await settled(api, toBank?.transactionId)).status).toBe('COMPLETED');
    for (const id of [accepted?.transactionId, failed?.internalCode, toBank?.externalReference]) {
      await expectDocumented(await api.get(`/cash-out/${id}`), 'get', '/cash-out/{id}');
    }

    const returned = await expectDocumented(
      await api.post(`/sandbox/cash-out/${accepted?.transactionId}/return`, { reason: 'PAYEE_REQUESTED' }),
      'post',
      '/sandbox/cash-out/{id}/return',
    );
    expect(returned?.status).toBe('REFUNDED');

    const list = await expectDocumented(await api.get(`/cash-out?${PERIOD}&order=desc`), 'get', '/cash-out');
    expect(list?.items).toHaveLength(3);
    const summary = await expectDocumented(
      await api.get(`/cash-out/summary?${PERIOD}`),
      'get',
      '/cash-out/summary',
    );
    expect(Object.keys(summary?.totals ?? {}).sort()).toEqual(['cancelled', 'completed', 'refunded']);
  });

  it('statement, balance (now and at an instant), top-up and sweep', async () => {
    const api = await Integrator.create();
    const proprietary = accountOf(api, 'PROPRIETARY');
    const transactional = accountOf(api, 'TRANSACTIONAL');
    await api.post(`/sandbox/accounts/${proprietary.number}/deposit`, { amount: 300 });
    await expectDocumented(
      await rebalance(api, 'top-up', { amount: 100 }),
      'post',
      '/account/rebalance/top-up',
    );
    await expectDocumented(await rebalance(api, 'sweep', { amount: 40 }), 'post', '/account/rebalance/sweep');

    const statement = await expectDocumented(
      await api.get(
        `/account/${transactional.number}/statement?from=${api.client.statementStartDate}&to=${FAR_TO}&limit=1`,
      ),
      'get',
      '/account/{number}/statement',
    );
    expect(statement?.nextCursor).toBeTypeOf('string');
    await expectDocumented(await api.get('/account/balance'), 'get', '/account/balance');
    await expectDocumented(await api.get(`/account/balance?at=${FAR_TO}`), 'get', '/account/balance');
  });
});
