/**
 * One precise message per field: an amount past a bound gets that bound's message alone. 1e300 or
 * 12345678901234567890 also said "amount must have at most 2 decimal places", which is not why
 * they were refused.
 */
import { describe, expect, it } from 'vitest';
import { accountOf } from '../support/account';
import { cashOutBody } from '../support/cash-out';
import { call, cashInBody, Integrator } from '../support/harness';

const MAX = 'amount must be at most 9999999999.99';
const MIN = 'amount must be at least 0.01';
const DECIMALS = 'amount must have at most 2 decimal places';

async function amountErrors(res: Response): Promise<string[] | undefined> {
  const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(body.errors)).toEqual(['amount']);
  return body.errors.amount;
}

describe('amount messages', () => {
  it('give exactly the one rule an amount breaks, on every route a client sends one', async () => {
    const api = await Integrator.create();
    const number = accountOf(api, 'TRANSACTIONAL').number;
    const cases: [number, string][] = [
      [1e300, MAX],
      [10_000_000_000.001, MAX],
      [1.234, DECIMALS],
      [0.001, MIN],
    ];
    for (const [amount, message] of cases) {
      const send = [
        () => api.post('/cash-in', cashInBody({ amount })),
        () => api.signedPost('/cash-out', cashOutBody({ amount })),
        () => api.post(`/sandbox/accounts/${number}/deposit`, { amount }),
      ];
      for (const request of send)
        expect(await amountErrors(await request()), String(amount)).toEqual([message]);
    }
    for (const amount of [1e300, 1e25]) {
      expect(await amountErrors(await api.signedPost('/account/rebalance/top-up', { amount }))).toEqual([
        MAX,
      ]);
    }
    expect(await amountErrors(await api.signedPost('/account/rebalance/top-up', { amount: 1.234 }))).toEqual([
      DECIMALS,
    ]);
  });

  it('names only the maximum for 12345678901234567890 written as a JSON integer', async () => {
    const api = await Integrator.create();
    const raw = (path: string, body: Record<string, unknown>, headers = {}) =>
      call(path, {
        method: 'POST',
        headers: api.headers(headers),
        body: JSON.stringify({ ...body, amount: 0 }).replace('"amount":0', '"amount":12345678901234567890'),
      });
    expect(await amountErrors(await raw('/cash-in', cashInBody()))).toEqual([MAX]);
    const number = accountOf(api, 'TRANSACTIONAL').number;
    expect(await amountErrors(await raw(`/sandbox/accounts/${number}/deposit`, {}))).toEqual([MAX]);
  });

  it('a hugely negative rebalance is the non-positive business rule, not a decimals complaint', async () => {
    const api = await Integrator.create();
    const res = await api.signedPost('/account/rebalance/top-up', { amount: -1e300 });
    const body = (await res.json()) as { code: string };
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(body.code).toBe('INVALID_AMOUNT');
  });
});
