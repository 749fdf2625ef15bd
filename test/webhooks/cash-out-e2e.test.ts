/**
 * Cash-Out events end to end: REQUESTED, COMPLETED / FAILED and REFUNDED reach the receiver,
 * signed, in order, each `data` equal to GET /cash-out/{id} at that moment (spec §6 rules 2, 3).
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createCashOut, deposit, getCashOut, magicKey, settled } from '../support/cash-out';
import { Integrator } from '../support/harness';
import { newSink, waitForRequests } from '../support/webhooks';

function envelopes(api: Integrator, requests: { body: string; headers: Record<string, string> }[]) {
  return requests.map(
    (r) =>
      new Webhook(api.client.webhookSecret).verify(r.body, r.headers) as { eventType: string; data: any },
  );
}

describe('Cash-Out webhooks over HTTP', () => {
  it('delivers REQUESTED, COMPLETED and REFUNDED with data as GET at that moment', async () => {
    const api = await Integrator.create();
    await deposit(api, 50);
    const sink = newSink();
    const accepted = await createCashOut(api, { amount: 20, webhookUrl: sink.url });
    const completed = await settled(api, accepted.transactionId);
    const returned = await api.post(`/sandbox/cash-out/${accepted.transactionId}/return`, {
      reason: 'FRAUD',
    });
    const refunded = await returned.json();
    const requests = await waitForRequests(sink, 3);
    const got = envelopes(api, requests);
    expect(got.map((e) => e.eventType)).toEqual([
      'CASHOUT_REQUESTED',
      'CASHOUT_COMPLETED',
      'CASHOUT_REFUNDED',
    ]);
    expect(got[0]!.data.status).toBe('PROCESSING');
    expect(got[1]!.data).toEqual(completed);
    expect(got[2]!.data).toEqual(refunded);
    expect(got[2]!.data).toEqual(await getCashOut(api, accepted.transactionId));
  });

  it('delivers the outcome of every accepted Cash-Out, including CASHOUT_FAILED with failure', async () => {
    const api = await Integrator.create();
    await deposit(api, 50);
    const sink = newSink();
    const accepted = await createCashOut(api, {
      amount: 3,
      webhookUrl: sink.url,
      payee: { name: 'A', document: '12345678909', destination: magicKey('PIX_KEY_NOT_FOUND') },
    });
    const failed = await settled(api, accepted.transactionId);
    const got = envelopes(api, await waitForRequests(sink, 2));
    expect(got.map((e) => e.eventType)).toEqual(['CASHOUT_REQUESTED', 'CASHOUT_FAILED']);
    expect(got[1]!.data).toEqual(failed);
    expect(got[1]!.data.failure.code).toBe('PIX_KEY_NOT_FOUND');
  });
});
