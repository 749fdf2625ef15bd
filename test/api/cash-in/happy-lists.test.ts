import { describe, expect, it } from 'vitest';
import type { CashInSummaryBody } from '../../../src/api/cash-in/summarize-cash-ins';
import { createCashIn, payCashIn } from '../../support/cash-in';
import { Integrator } from '../../support/harness';
import { accountBalance, cashIns } from '../../support/ledger-reads';

type Page = {
  items: { transactionId: string; requestedAt: string }[];
  nextCursor?: string;
  previousCursor?: string;
};

async function seed(api: Integrator, count: number) {
  // Many Cash-Ins share one second: the walk must keep them in order by the tie-breaker.
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await createCashIn(api, { amount: 1 + (i % 7) })).transactionId);
  return ids;
}

async function page(api: Integrator, query: string): Promise<Page> {
  const res = await api.get(`/cash-in?from=2020-01-01&to=2100-12-31&${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

async function walk(api: Integrator, order: 'asc' | 'desc', limit: number) {
  const pages: Page[] = [];
  let p = await page(api, `order=${order}&limit=${limit}`);
  expect(p.previousCursor).toBeUndefined();
  pages.push(p);
  while (p.nextCursor) {
    p = await page(api, `order=${order}&limit=${limit}&cursor=${encodeURIComponent(p.nextCursor)}`);
    expect(p.previousCursor).toBeDefined();
    pages.push(p);
  }
  return pages;
}

describe('GET /cash-in cursor walk (spec §4.1, §4.7)', () => {
  it('walks 260 Cash-Ins forward and back in both orders with no gap or duplicate', async () => {
    const api = await Integrator.create();
    const ids = await seed(api, 260);
    for (const order of ['asc', 'desc'] as const) {
      const expected = order === 'asc' ? ids : [...ids].reverse();
      const pages = await walk(api, order, 37);
      expect(pages.at(-1)!.nextCursor).toBeUndefined();
      expect(pages.flatMap((p) => p.items.map((i) => i.transactionId))).toEqual(expected);
      // And back from the last page to the first, each page identical to the forward one.
      let back = pages.at(-1)!;
      for (let i = pages.length - 2; i >= 0; i--) {
        back = await page(api, `order=${order}&limit=37&cursor=${encodeURIComponent(back.previousCursor!)}`);
        expect(back.items.map((x) => x.transactionId)).toEqual(pages[i]!.items.map((x) => x.transactionId));
      }
      expect(back.previousCursor).toBeUndefined();
      expect(back.nextCursor).toBeDefined();
    }
  });

  it('filters on creation time, inclusive bounds, default limit 50, order asc', async () => {
    const api = await Integrator.create();
    const ids = await seed(api, 55);
    const first = await page(api, '');
    expect(first.items).toHaveLength(50);
    expect(first.items.map((i) => i.transactionId)).toEqual(ids.slice(0, 50));
    const rows = await cashIns(api.client.clientId);
    const at = rows[10]!.requestedAt;
    const exact = new Date(at - 3 * 3600_000).toISOString().slice(0, 23);
    const res = await api.get(`/cash-in?from=${exact}&to=${exact}`);
    const body = (await res.json()) as Page;
    expect(body.items.map((i) => i.transactionId)).toContain(rows[10]!.transactionId);
    expect(body.items.every((i) => Date.parse(i.requestedAt) === at)).toBe(true);
    const none = await api.get('/cash-in?from=2020-01-01&to=2020-01-02');
    expect(((await none.json()) as Page).items).toEqual([]);
  });

  it('answers 422 LIST_ORDER_MISMATCH and 400 for malformed parameters or a forged cursor', async () => {
    const api = await Integrator.create();
    await seed(api, 3);
    const p = await page(api, 'limit=1&order=desc');
    const mismatch = await api.get(
      `/cash-in?from=2020-01-01&to=2100-12-31&limit=1&order=asc&cursor=${encodeURIComponent(p.nextCursor!)}`,
    );
    expect(mismatch.status).toBe(422);
    expect(((await mismatch.json()) as { code: string }).code).toBe('LIST_ORDER_MISMATCH');
    const cases: [string, string][] = [
      ['to=2100-12-31', 'from'],
      ['from=2020-13-01&to=2100-12-31', 'from'],
      ['from=2020-01-01&to=yesterday', 'to'],
      ['from=2020-01-01&to=2100-12-31&limit=0', 'limit'],
      ['from=2020-01-01&to=2100-12-31&limit=1001', 'limit'],
      ['from=2020-01-01&to=2100-12-31&limit=abc', 'limit'],
      ['from=2020-01-01&to=2100-12-31&order=up', 'order'],
      [
        `from=2020-01-01&to=2100-12-31&cursor=${encodeURIComponent(p.nextCursor!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))}`,
        'cursor',
      ],
      ['from=2020-01-01&to=2100-12-31&cursor=garbage', 'cursor'],
      [`from=2021-01-01&to=2100-12-31&cursor=${encodeURIComponent(p.nextCursor!)}`, 'cursor'],
      ['from=2100-12-31&to=2020-01-01', 'to'],
    ];
    for (const [query, field] of cases) {
      const res = await api.get(`/cash-in?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.errors), query).toContain(field);
    }
    const other = await Integrator.create();
    const foreign = await other.get(
      `/cash-in?from=2020-01-01&to=2100-12-31&limit=1&order=desc&cursor=${encodeURIComponent(p.nextCursor!)}`,
    );
    expect(foreign.status).toBe(400);
  });
});

describe('GET /cash-in/summary (spec §4.8)', () => {
  it('buckets pending (awaiting + expired), paid, refunded; settlement of paid only; reconciles with the ledger', async () => {
    const api = await Integrator.create();
    await createCashIn(api, { amount: 5 });
    const expired = await createCashIn(api, { amount: 7 });
    await api.post(`/sandbox/cash-in/${expired.internalCode}/expire`, {});
    const paidA = await createCashIn(api, { amount: 100 });
    await payCashIn(api, paidA.internalCode);
    const paidB = await createCashIn(api, { amount: 20.5 });
    await payCashIn(api, paidB.internalCode);
    const refunded = await createCashIn(api, { amount: 3 });
    await payCashIn(api, refunded.internalCode);
    await api.post(`/sandbox/cash-in/${refunded.internalCode}/return`, { reason: 'OTHER' });

    const res = await api.get('/cash-in/summary?from=2020-01-01&to=2100-12-31');
    expect(res.status).toBe(200);
    const body = (await res.json()) as CashInSummaryBody;
    expect(body.currency).toBe('BRL');
    expect(body.from).toBe('2020-01-01T00:00:00.000-03:00');
    expect(body.to).toBe('2100-12-31T23:59:59.999-03:00');
    expect(body.totals).toEqual({
      pending: { count: 2, amount: 12 },
      paid: { count: 2, amount: 120.5 },
      refunded: { count: 1, amount: 3 },
    });
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    expect(body.settlement).toEqual([
      { ispb: transactional.bank.ispb, bank: transactional.bank.name, count: 2, amount: 120.5 },
    ]);
    const balance = (await accountBalance(api.client.clientId, transactional.number))!;
    expect(balance / 100).toBe(body.settlement[0]!.amount);
  });

  it('omits empty buckets', async () => {
    const api = await Integrator.create();
    const body = (await (
      await api.get('/cash-in/summary?from=2020-01-01&to=2100-12-31')
    ).json()) as CashInSummaryBody;
    expect(body.totals).toEqual({});
    expect(body.settlement).toEqual([]);
  });
});
