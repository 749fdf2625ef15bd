/**
 * A refund that fails at the PIX network (issue 17 §5): the client is told and can act. The sandbox
 * partner fails devolutions while the operator's Cash-In fault with a failure rate is on (global to
 * the partner, so this file runs with the other fault files, alone). The Cash-In is PAID again with
 * `refundFailure`, CASHIN_REFUND_FAILED is delivered, the money is available again, and the refund's
 * idempotency key no longer replays the 202: the same key starts a new attempt, which succeeds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CashInBody } from '../../src/api/cash-in/shared';
import { accountOf, getBalance } from '../support/account';
import { createCashIn, payCashIn, waitFor } from '../support/cash-in';
import { admin, Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { newSink, received, waitUntil } from '../support/webhooks';

const GAMA = '56431109';
const clearFaults = async () =>
  expect((await admin(`/admin/partners/${GAMA}/faults`, 'DELETE')).status).toBe(204);

afterEach(clearFaults);

describe('a refund the network fails', () => {
  it('sends CASHIN_REFUND_FAILED, leaves the Cash-In PAID with refundFailure, and lets the same key retry', async () => {
    const api = await Integrator.create({ partners: [GAMA] });
    const sink = newSink();
    const cashIn = await createCashIn(api, { amount: 42, webhookUrl: sink.url });
    await payCashIn(api, cashIn.internalCode);
    const get = async () => (await (await api.get(`/cash-in/${cashIn.internalCode}`)).json()) as CashInBody;
    await waitFor(get, (c) => c.endToEndId !== undefined);
    const fault = await admin(`/admin/partners/${GAMA}/faults`, 'POST', {
      operation: 'CASH_IN',
      failureRate: 1,
      minutes: 1,
    });
    expect(fault.status).toBe(201);

    const key = crypto.randomUUID();
    const first = await api.signedPost(
      `/cash-in/${cashIn.internalCode}/refund`,
      { reason: 'CUSTOMER_REQUEST' },
      { 'x-idempotency-key': key },
    );
    expect(first.status).toBe(202);
    const firstBody = (await first.json()) as { endToEndId: string };
    const failed = await waitFor(get, (c) => c.refundFailure !== undefined);
    expect(failed).toMatchObject({
      status: 'PAID',
      refundFailure: { code: 'PROVIDER_UNAVAILABLE', message: expect.any(String) },
    });
    expect(failed).not.toHaveProperty('reason');
    // The money is available again.
    const account = accountOf(api, 'TRANSACTIONAL').number;
    const accountOfBalance = (await getBalance(api)).partners[0]!.accounts.find((a) => a.number === account)!;
    expect(accountOfBalance.balance).toBe(42);
    expect(accountOfBalance.available ?? accountOfBalance.balance).toBe(42);

    // The client is told, with the state it can act on.
    const events = await waitUntil(
      async () => (await received(sink)).map((r) => JSON.parse(r.body) as { eventType: string; data: any }),
      (list) => list.some((e) => e.eventType === 'CASHIN_REFUND_FAILED'),
    );
    const told = events.find((e) => e.eventType === 'CASHIN_REFUND_FAILED')!;
    expect(told.data).toEqual(failed);

    // The same key no longer replays the failed attempt: it starts a new one, which succeeds.
    await clearFaults();
    const again = await api.signedPost(
      `/cash-in/${cashIn.internalCode}/refund`,
      { reason: 'CUSTOMER_REQUEST' },
      { 'x-idempotency-key': key },
    );
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const againBody = (await again.json()) as { endToEndId: string };
    expect(againBody.endToEndId).not.toBe(firstBody.endToEndId);
    const refunded = await waitFor(get, (c) => c.status === 'REFUNDED');
    expect(refunded).toMatchObject({ reason: 'CUSTOMER_REQUEST', endToEndId: againBody.endToEndId });
    expect(refunded).not.toHaveProperty('refundFailure');
    await assertBooks(api);
  });
});
