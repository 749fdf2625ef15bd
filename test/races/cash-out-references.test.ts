/**
 * Cash-Outs with one externalReference or one idempotency key fired together (issue 9, races; the
 * Cash-In side is in test/api/cash-in/happy-idempotency.test.ts): one Cash-Out is created and paid once, every
 * other request gets the contract's answer.
 */
import { describe, expect, it } from 'vitest';
import { problemCode } from '../support/cash-in';
import { cashOutBody, deposit, settled } from '../support/cash-out';
import { Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';

describe('Cash-Outs racing on one externalReference or key', () => {
  it('20 with one externalReference and different payees: one 202, nineteen 409, one payment', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const reference = `race-${crypto.randomUUID().slice(0, 8)}`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.signedPost('/cash-out', cashOutBody({ externalReference: reference, amount: 5 + i / 100 })),
      ),
    );
    const accepted = responses.filter((r) => r.status === 202);
    expect(accepted).toHaveLength(1);
    for (const r of responses.filter((x) => x.status !== 202)) {
      expect(r.status).toBe(409);
      expect(await problemCode(r)).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    }
    const { transactionId } = (await accepted[0]!.json()) as { transactionId: string };
    expect((await settled(api, transactionId)).status).toBe('COMPLETED');
    const books = await assertBooks(api);
    expect(books.cashOuts).toHaveLength(1);
    expect(books.partner).toHaveLength(1);
  });

  it('20 with one idempotency key: one Cash-Out; every 202 names it, replays say so', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const key = crypto.randomUUID();
    const body = cashOutBody({ amount: 12.34 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.signedPost('/cash-out', body, { 'x-idempotency-key': key })),
    );
    const ids = new Set<string>();
    let fresh = 0;
    for (const r of responses) {
      if (r.status === 409) {
        expect(await problemCode(r)).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
        continue;
      }
      expect(r.status).toBe(202);
      if (r.headers.get('idempotent-replayed') !== 'true') fresh++;
      ids.add(((await r.json()) as { transactionId: string }).transactionId);
    }
    expect(fresh).toBe(1);
    expect(ids.size).toBe(1);
    const [transactionId] = [...ids];
    expect((await settled(api, transactionId!)).status).toBe('COMPLETED');
    const books = await assertBooks(api);
    expect(books.cashOuts).toHaveLength(1);
    expect(books.entries.map((e) => [e.type, e.amount])).toEqual([
      ['TRANSFER_IN', 10_000],
      ['PIX_OUT', 1234],
    ]);
  });
});
