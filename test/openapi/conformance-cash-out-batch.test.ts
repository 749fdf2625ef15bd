/** Real batch Cash-Out responses against the served OpenAPI document. */
import { describe, it } from 'vitest';
import { cashOutBody, deposit } from '../support/cash-out';
import { batchItems, batchSettled } from '../support/cash-out-batch';
import { Integrator } from '../support/harness';
import { expectDocumented } from './conformance';

describe('batch Cash-Out responses conform to the document', () => {
  it('202, 400, 409; the batch 200 and 404', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const items = batchItems(2);
    const accepted = (await expectDocumented(
      await api.signedPost('/cash-out/batch', { items }),
      'post',
      '/cash-out/batch',
    )) as { batchId: string };
    await expectDocumented(
      await api.signedPost('/cash-out/batch', { items: [cashOutBody({ amount: 'x' })] }),
      'post',
      '/cash-out/batch',
    );
    await expectDocumented(await api.signedPost('/cash-out/batch', { items }), 'post', '/cash-out/batch');
    await batchSettled(api, accepted.batchId);
    await expectDocumented(
      await api.get(`/cash-out/batch/${accepted.batchId}`),
      'get',
      '/cash-out/batch/{batchId}',
    );
    await expectDocumented(
      await api.get(`/cash-out/batch/${crypto.randomUUID()}`),
      'get',
      '/cash-out/batch/{batchId}',
    );
  });
});
