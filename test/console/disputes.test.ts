/**
 * Open MED disputes for the operator: first on the console's dashboard with their deadline, and
 * GET /admin/disputes across clients (docs/operating.md, MED disputes and their deadlines).
 */
import { describe, expect, it } from 'vitest';
import type { CashInBody } from '../../src/api/cash-in/shared';
import { createCashIn, payCashIn } from '../support/cash-in';
import { consoleCookie } from '../support/console';
import { admin, call, Integrator } from '../support/harness';

async function disputed(api: Integrator, amount: number) {
  const created = await createCashIn(api, { amount });
  await payCashIn(api, created.internalCode);
  const res = await api.post(`/sandbox/cash-in/${created.internalCode}/dispute`, {});
  expect(res.status).toBe(201);
  return (await res.json()) as CashInBody;
}

const PERIOD = 'from=2000-01-01&to=2100-12-31';

describe('open disputes for the operator', () => {
  it('the dashboard shows them first, soonest deadline first; closed ones leave', async () => {
    const api = await Integrator.create();
    const a = await disputed(api, 12);
    const b = await disputed(api, 13);
    const html = await (await call('/admin/console', { headers: { cookie: await consoleCookie() } })).text();
    expect(html.indexOf('id="disputes"')).toBeGreaterThan(-1);
    expect(html.indexOf('id="disputes"')).toBeLessThan(html.indexOf('id="clients"'));
    const section = html.slice(html.indexOf('id="disputes"'), html.indexOf('id="clients"'));
    expect(section.indexOf(a.internalCode)).toBeGreaterThan(-1);
    expect(section.indexOf(a.internalCode)).toBeLessThan(section.indexOf(b.internalCode));
    expect(section).toContain(`datetime="${new Date(Date.parse(a.dispute!.respondBy)).toISOString()}"`);
    const closed = await api.post(`/sandbox/cash-in/${a.internalCode}/dispute/close`, {
      outcome: 'REJECTED',
    });
    expect(closed.status).toBe(200);
    const after = await (await call('/admin/console', { headers: { cookie: await consoleCookie() } })).text();
    const rest = after.slice(after.indexOf('id="disputes"'), after.indexOf('id="clients"'));
    expect(rest).not.toContain(a.internalCode);
    expect(rest).toContain(b.internalCode);
  });

  it('GET /admin/disputes lists them across clients with their client, filtered and validated', async () => {
    const api = await Integrator.create();
    const other = await Integrator.create();
    const mine = await disputed(api, 21);
    const theirs = await disputed(other, 22);
    const all = await admin(`/admin/disputes?${PERIOD}&status=OPEN`);
    expect(all.status).toBe(200);
    const items = ((await all.json()) as { items: { clientId: string; cashIn: CashInBody }[] }).items;
    expect(items.find((i) => i.cashIn.transactionId === mine.transactionId)?.clientId).toBe(
      api.client.clientId,
    );
    expect(items.find((i) => i.cashIn.transactionId === theirs.transactionId)?.clientId).toBe(
      other.client.clientId,
    );
    const one = await admin(`/admin/disputes?${PERIOD}&clientId=${other.client.clientId}`);
    const only = ((await one.json()) as { items: { clientId: string }[] }).items;
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((i) => i.clientId === other.client.clientId)).toBe(true);
    for (const [query, field] of [
      ['status=NOPE', 'status'],
      ['ispb=abc', 'ispb'],
      ['limit=0', 'limit'],
      ['clientId=x', 'clientId'],
    ] as const) {
      const res = await admin(`/admin/disputes?${PERIOD}&${query}`);
      expect(res.status).toBe(400);
      expect(Object.keys(((await res.json()) as { errors: object }).errors)).toEqual([field]);
    }
    // A client's own list never shows another client's dispute.
    const own = await api.get(`/disputes?${PERIOD}`);
    const ids = ((await own.json()) as { items: CashInBody[] }).items.map((c) => c.transactionId);
    expect(ids).toEqual([mine.transactionId]);
  });

  it('GET /admin/disputes pages with a tamper-evident cursor across clients, newest first, filtered', async () => {
    const [one, two] = [await Integrator.create(), await Integrator.create()];
    const mine = new Set([one.client.clientId, two.client.clientId]);
    const a1 = await disputed(one, 31);
    const a2 = await disputed(two, 32);
    const b1 = await disputed(one, 33);
    const b2 = await disputed(two, 34);
    type Page = { items: { clientId: string; cashIn: CashInBody }[]; nextCursor?: string };
    const walk = async (query: string) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await admin(
          `/admin/disputes?${PERIOD}&limit=1&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.status, await res.clone().text()).toBe(200);
        const page = (await res.json()) as Page;
        expect(page.items.length).toBeLessThanOrEqual(1);
        seen.push(...page.items.filter((i) => mine.has(i.clientId)).map((i) => i.cashIn.internalCode));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };
    const newestFirst = [b2, b1, a2, a1].map((c) => c.internalCode);
    expect(await walk('')).toEqual(newestFirst);
    const whole = (await (await admin(`/admin/disputes?${PERIOD}&limit=200`)).json()) as Page;
    expect(whole.items.filter((i) => mine.has(i.clientId)).map((i) => i.cashIn.internalCode)).toEqual(
      newestFirst,
    );
    expect(await walk(`clientId=${one.client.clientId}`)).toEqual([b1, a1].map((c) => c.internalCode));
    const ispb = a1.settlement?.ispb as string;
    expect(await walk(`ispb=${ispb}&status=OPEN`)).toEqual(newestFirst);
    expect(await walk(`ispb=${ispb === '99999999' ? '11111111' : '99999999'}`)).toEqual([]);

    // A cursor altered, of other filters or period, or a client's own: 400 naming cursor.
    const first = (await (await admin(`/admin/disputes?${PERIOD}&limit=1`)).json()) as Page;
    const cursor = first.nextCursor as string;
    const own = (await (await one.get(`/disputes?${PERIOD}&limit=1`)).json()) as Page;
    const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    for (const query of [
      `${PERIOD}&cursor=${tampered}`,
      `${PERIOD}&cursor=${encodeURIComponent(cursor)}&status=OPEN`,
      `from=2000-01-02&to=2100-12-31&cursor=${encodeURIComponent(cursor)}`,
      `${PERIOD}&cursor=${encodeURIComponent(own.nextCursor as string)}`,
      `${PERIOD}&cursor=nonsense`,
    ]) {
      const res = await admin(`/admin/disputes?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(((await res.json()) as { errors: object }).errors)).toEqual(['cursor']);
    }
  });
});
