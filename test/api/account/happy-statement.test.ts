import { describe, expect, it } from 'vitest';
import {
  accountOf,
  BRT_DATE,
  deposit,
  FAR_TO,
  fullStatement,
  rebalance,
  type StatementPage,
  statementPage,
  walkStatement,
} from '../../support/account';
import { createCashIn, payCashIn, problemCode } from '../../support/cash-in';
import { call, Integrator } from '../../support/harness';
import { addEntries } from '../../support/ledger-writes';

const ids = (p: StatementPage) => p.items.map((i) => i.id);

describe('GET /account/{number}/statement (spec §4.12, §2.4)', () => {
  it('walks entries that share a second forward and back, in both orders, by ms then seq', async () => {
    const api = await Integrator.create();
    const account = accountOf(api, 'TRANSACTIONAL');
    const posted: string[] = [];
    for (let i = 0; i < 90; i++)
      posted.push((await deposit(api, account.number, 1 + (i % 9) / 100)).entry.id);

    const all = await fullStatement(api, account.number);
    expect(all.map((i) => i.id)).toEqual(posted);
    // The tight loop put many entries in one second; their ms line them up with the cursor.
    const seconds = all.map((i) => i.date.slice(0, 19));
    expect(new Set(seconds).size).toBeLessThan(all.length);
    for (let i = 1; i < all.length; i++) expect(all[i]!.date >= all[i - 1]!.date).toBe(true);
    for (const item of all) expect(item.date).toMatch(BRT_DATE);

    for (const order of ['asc', 'desc'] as const) {
      const expected = order === 'asc' ? posted : [...posted].reverse();
      const pages = await walkStatement(api, account.number, { order, limit: 7 });
      expect(pages).toHaveLength(13);
      expect(pages[0]!.previousCursor).toBeUndefined();
      expect(pages.at(-1)!.nextCursor).toBeUndefined();
      expect(pages.flatMap(ids)).toEqual(expected);
      for (const p of pages) expect(p.period.order).toBe(order);
      // Back from the last page: each page identical to the one seen going forward.
      let back = pages.at(-1)!;
      const base = `from=${api.client.statementStartDate}&to=${FAR_TO}&order=${order}&limit=7`;
      for (let i = pages.length - 2; i >= 0; i--) {
        back = await statementPage(
          api,
          account.number,
          `${base}&cursor=${encodeURIComponent(back.previousCursor!)}`,
        );
        expect(ids(back)).toEqual(ids(pages[i]!));
      }
      expect(back.previousCursor).toBeUndefined();
      expect(back.nextCursor).toBeDefined();
    }
  });

  it('orders by the entry time (ms) first and seq second, even when seq disagrees', async () => {
    const api = await Integrator.create();
    const account = accountOf(api, 'PROPRIETARY');
    const second = Date.parse(`${api.client.statementStartDate}T12:00:00.000-03:00`);
    // Rows a partner could report out of order: seq order is not time order.
    const rows: [string, number][] = [
      ['ENTA', 500],
      ['ENTB', 100],
      ['ENTC', 100],
      ['ENTD', 999],
      ['ENTE', 0],
    ];
    for (const [id, ms] of rows) {
      await addEntries(api.client.clientId, [
        {
          id,
          accountNumber: account.number,
          type: 'TRANSFER_IN',
          typeRaw: 'TRANSFERENCIA RECEBIDA',
          direction: 'CREDIT',
          amount: 100,
          balanceAfter: 100,
          ref: 'test',
          createdAt: second + ms,
        },
      ]);
    }
    const expected = ['ENTE', 'ENTB', 'ENTC', 'ENTA', 'ENTD'];
    for (const order of ['asc', 'desc'] as const) {
      const pages = await walkStatement(api, account.number, { order, limit: 2 });
      expect(pages.flatMap(ids)).toEqual(order === 'asc' ? expected : [...expected].reverse());
    }
    const dates = (await fullStatement(api, account.number)).map((i) => i.date);
    expect(dates).toEqual([
      `${api.client.statementStartDate}T12:00:00.000-03:00`,
      `${api.client.statementStartDate}T12:00:00.100-03:00`,
      `${api.client.statementStartDate}T12:00:00.100-03:00`,
      `${api.client.statementStartDate}T12:00:00.500-03:00`,
      `${api.client.statementStartDate}T12:00:00.999-03:00`,
    ]);
    // One page at a time across the tie at .100, forward then back.
    const base = `from=${api.client.statementStartDate}&to=${FAR_TO}&limit=1`;
    const forward = [await statementPage(api, account.number, base)];
    while (forward.at(-1)!.nextCursor)
      forward.push(
        await statementPage(
          api,
          account.number,
          `${base}&cursor=${encodeURIComponent(forward.at(-1)!.nextCursor!)}`,
        ),
      );
    expect(forward.flatMap(ids)).toEqual(expected);
    const backward = [forward.at(-1)!];
    while (backward.at(-1)!.previousCursor)
      backward.push(
        await statementPage(
          api,
          account.number,
          `${base}&cursor=${encodeURIComponent(backward.at(-1)!.previousCursor!)}`,
        ),
      );
    expect(backward.flatMap(ids)).toEqual([...expected].reverse());
    // The period filters on the entry time, both bounds inclusive to the millisecond.
    const exact = `${api.client.statementStartDate}T12:00:00.100`;
    const tie = await statementPage(api, account.number, `from=${exact}&to=${exact}`);
    expect(ids(tie)).toEqual(['ENTB', 'ENTC']);
    expect(tie.period).toEqual({
      from: `${exact}-03:00`,
      to: `${exact}-03:00`,
      order: 'asc',
    });
  });

  it('shows every kind of entry with its fields, absent ones omitted, and the account', async () => {
    const api = await Integrator.create();
    const transactional = accountOf(api, 'TRANSACTIONAL');
    const proprietary = accountOf(api, 'PROPRIETARY');
    const paid = await createCashIn(api, { amount: 80 });
    const settled = await payCashIn(api, paid.internalCode);
    const returned = await api.post(`/sandbox/cash-in/${paid.internalCode}/return`, { reason: 'FRAUD' });
    expect(returned.status).toBe(200);
    const refundE2e = ((await returned.json()) as { endToEndId: string }).endToEndId;
    await deposit(api, transactional.number, 50.5);
    expect((await rebalance(api, 'sweep', { amount: 20.25 })).status).toBe(201);

    const page = await statementPage(
      api,
      transactional.number,
      `from=${api.client.statementStartDate}&to=${FAR_TO}`,
    );
    expect(page.account).toEqual({
      number: transactional.number,
      branch: transactional.branch,
      type: 'TRANSACTIONAL',
      bank: { ispb: transactional.bank.ispb, name: transactional.bank.name },
    });
    expect(page.period).toEqual({
      from: `${api.client.statementStartDate}T00:00:00.000-03:00`,
      to: `${FAR_TO}T23:59:59.999-03:00`,
      order: 'asc',
    });
    expect(page.nextCursor).toBeUndefined();
    expect(page.previousCursor).toBeUndefined();
    const [pixIn, refundOut, depositIn, sweepOut] = page.items as [any, any, any, any];
    expect(page.items).toHaveLength(4);
    expect(pixIn).toEqual({
      id: expect.stringMatching(/^ENT[0-9A-F]{24}$/),
      date: expect.stringMatching(BRT_DATE),
      direction: 'CREDIT',
      type: 'PIX_IN',
      typeRaw: 'PIX RECEBIDO',
      amount: 80,
      balanceAfter: 80,
      description: expect.any(String),
      endToEndId: settled.endToEndId,
    });
    expect(refundOut).toEqual({
      id: expect.any(String),
      date: expect.stringMatching(BRT_DATE),
      direction: 'DEBIT',
      type: 'PIX_REFUND_OUT',
      // A return the payer's bank made on its own (the sandbox return) carries the bank's label.
      typeRaw: 'DEVOLUCAO PIX PELO BANCO',
      amount: 80,
      balanceAfter: 0,
      description: expect.any(String),
      endToEndId: refundE2e,
      originalEndToEndId: settled.endToEndId,
    });
    expect(depositIn).toMatchObject({
      direction: 'CREDIT',
      type: 'TRANSFER_IN',
      amount: 50.5,
      balanceAfter: 50.5,
    });
    expect(sweepOut).toMatchObject({
      direction: 'DEBIT',
      type: 'TRANSFER_OUT',
      amount: 20.25,
      balanceAfter: 30.25,
    });
    for (const item of [depositIn, sweepOut]) {
      expect(item).not.toHaveProperty('endToEndId');
      expect(item).not.toHaveProperty('originalEndToEndId');
      expect(typeof item.typeRaw).toBe('string');
    }
    expect(pixIn).not.toHaveProperty('originalEndToEndId');
    expect(JSON.stringify(page)).not.toContain('null');
    // The ids are stable: the same entries read again carry the same ids.
    const again = await statementPage(
      api,
      transactional.number,
      `from=${api.client.statementStartDate}&to=${FAR_TO}`,
    );
    expect(ids(again)).toEqual(ids(page));

    const other = await statementPage(
      api,
      proprietary.number,
      `from=${api.client.statementStartDate}&to=${FAR_TO}`,
    );
    expect(other.account.type).toBe('PROPRIETARY');
    expect(other.items).toEqual([
      expect.objectContaining({
        direction: 'CREDIT',
        type: 'TRANSFER_IN',
        amount: 20.25,
        balanceAfter: 20.25,
      }),
    ]);
    expect(other.items[0]!.date).toBe(sweepOut.date);
  });

  it('answers the same 404 ACCOUNT_NOT_FOUND for a foreign and a nonexistent account; 400 for a malformed number', async () => {
    const api = await Integrator.create();
    const other = await Integrator.create();
    await deposit(other, accountOf(other, 'TRANSACTIONAL').number, 10);
    const query = `from=${api.client.statementStartDate}&to=${FAR_TO}`;
    const foreign = await api.get(`/account/${accountOf(other, 'TRANSACTIONAL').number}/statement?${query}`);
    const missing = await api.get(`/account/00000000-0/statement?${query}`);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.headers.get('content-type')).toBe('application/problem+json');
    const foreignBody = await foreign.json();
    expect(foreignBody).toEqual(await missing.json());
    expect((foreignBody as { code: string }).code).toBe('ACCOUNT_NOT_FOUND');

    for (const number of ['A'.repeat(33), 'abc_123', 'conta%20um', '%E0%A4%A']) {
      const res = await api.get(`/account/${number}/statement?${query}`);
      expect(res.status, number).toBe(400);
      const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.errors)).toEqual(['number']);
    }
    // 32 characters of the allowed alphabet are well-formed (and simply not the client's).
    const longest = await api.get(`/account/${'A1-'.repeat(10)}AB/statement?${query}`);
    expect(longest.status).toBe(404);
    // Without credentials nothing is said about the account.
    const anonymous = await call(`/account/${accountOf(api, 'TRANSACTIONAL').number}/statement?${query}`);
    expect(anonymous.status).toBe(401);
  });

  it('refuses a from before the client start date with 422 LIST_FROM_BEFORE_CUTOFF naming it; that date itself is accepted', async () => {
    const api = await Integrator.create({ statementStartDate: '2024-03-10' });
    const number = accountOf(api, 'TRANSACTIONAL').number;
    const refused = [
      '2024-03-09',
      '2024-03-09T23:59:59.999',
      '2024-03-10T02:59:59Z',
      '2024-03-09T23:59:59.999-03:00',
      '2020-01-01',
    ];
    for (const from of refused) {
      const res = await api.get(
        `/account/${number}/statement?from=${encodeURIComponent(from)}&to=2024-12-31`,
      );
      expect(res.status, from).toBe(422);
      const body = (await res.json()) as { code: string; detail: string };
      expect(body.code).toBe('LIST_FROM_BEFORE_CUTOFF');
      expect(body.detail).toContain('2024-03-10');
    }
    for (const from of [
      '2024-03-10',
      '2024-03-10T00:00:00',
      '2024-03-10T03:00:00Z',
      '2024-03-10T00:00:00.000-03:00',
    ]) {
      const res = await api.get(
        `/account/${number}/statement?from=${encodeURIComponent(from)}&to=2024-12-31`,
      );
      expect(res.status, from).toBe(200);
    }
    // The cutoff is per client and the same for all its accounts.
    const proprietary = accountOf(api, 'PROPRIETARY', 2).number;
    const res = await api.get(`/account/${proprietary}/statement?from=2024-03-09&to=2024-12-31`);
    expect(await problemCode(res)).toBe('LIST_FROM_BEFORE_CUTOFF');
    // Default start date: the onboarding day.
    const today = await Integrator.create();
    expect(today.client.statementStartDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const ok = await today.get(
      `/account/${accountOf(today, 'TRANSACTIONAL').number}/statement?from=${today.client.statementStartDate}&to=${FAR_TO}`,
    );
    expect(ok.status).toBe(200);
  });

  it('checks the query like the other lists: 400 naming the field, 422 LIST_ORDER_MISMATCH, cursors bound to one account', async () => {
    const api = await Integrator.create();
    const transactional = accountOf(api, 'TRANSACTIONAL').number;
    const proprietary = accountOf(api, 'PROPRIETARY').number;
    for (let i = 0; i < 3; i++) {
      await deposit(api, transactional, 1);
      await deposit(api, proprietary, 1);
    }
    const from = api.client.statementStartDate;
    const first = await statementPage(api, transactional, `from=${from}&to=${FAR_TO}&limit=1&order=desc`);
    const cursor = encodeURIComponent(first.nextCursor!);
    const mismatch = await api.get(
      `/account/${transactional}/statement?from=${from}&to=${FAR_TO}&limit=1&order=asc&cursor=${cursor}`,
    );
    expect(mismatch.status).toBe(422);
    expect(await problemCode(mismatch)).toBe('LIST_ORDER_MISMATCH');
    const cases: [string, string, string][] = [
      [transactional, `to=${FAR_TO}`, 'from'],
      [transactional, `from=${from}`, 'to'],
      [transactional, `from=${from}&to=tomorrow`, 'to'],
      [transactional, `from=${from}&to=${FAR_TO}&limit=0`, 'limit'],
      [transactional, `from=${from}&to=${FAR_TO}&limit=1001`, 'limit'],
      [transactional, `from=${from}&to=${FAR_TO}&order=newest`, 'order'],
      [transactional, `from=${from}&to=${FAR_TO}&cursor=garbage`, 'cursor'],
      // A cursor of another account's statement is not valid here.
      [proprietary, `from=${from}&to=${FAR_TO}&limit=1&order=desc&cursor=${cursor}`, 'cursor'],
    ];
    for (const [number, query, field] of cases) {
      const res = await api.get(`/account/${number}/statement?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.errors), query).toContain(field);
    }
    // Another client cannot use the cursor either.
    const other = await Integrator.create();
    const foreign = await other.get(
      `/account/${transactional}/statement?from=${from}&to=${FAR_TO}&limit=1&order=desc&cursor=${cursor}`,
    );
    expect(foreign.status).toBe(400);
    // The default limit is 50 and the order oldest first.
    const many = accountOf(api, 'TRANSACTIONAL', 1).number;
    for (let i = 0; i < 52; i++) await deposit(api, many, 1);
    const page = await statementPage(api, many, `from=${from}&to=${FAR_TO}`);
    expect(page.items).toHaveLength(50);
    expect(page.period.order).toBe('asc');
    expect(page.items[0]!.balanceAfter).toBe(1);
    expect(page.nextCursor).toBeDefined();
  });
});
