/**
 * Open MED disputes for the operator: first on the console's dashboard with their deadline, and
 * GET /admin/disputes across clients (docs/operating.md, MED disputes and their deadlines).
 */
import { describe, expect, it } from 'vitest';
import type { CashInBody } from '../../src/api/cash-in/shared';
import { createCashIn, payCashIn } from '../support/cash-in';
import { ADMIN_TOKEN, admin, BASE, call, Integrator } from '../support/harness';

async function cookie(): Promise<string> {
  const res = await call('/admin/console/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE },
    body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
    redirect: 'manual',
  });
  return (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

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
    const html = await (await call('/admin/console', { headers: { cookie: await cookie() } })).text();
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
    const after = await (await call('/admin/console', { headers: { cookie: await cookie() } })).text();
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
});
