import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedKey } from '../../../durable-objects/ledger/ledger/idempotency-codec';
import { ledgerOf } from '../../../durable-objects/stubs';
import type { RebalanceBody } from '../../../src/api/account/rebalance';
import type { DepositBody } from '../../../src/api/account/schemas';
import {
  accountOf,
  BRT_DATE,
  balanceOf,
  deposit,
  fullStatement,
  getBalance,
  rebalance,
  sleep,
} from '../../support/account';
import { createCashIn, payCashIn, problemCode } from '../../support/cash-in';
import { admin, call, Integrator, sign } from '../../support/harness';
import { sqlRows } from '../../support/ledger';
import { OUTCOME_MS, waitUntil } from '../../support/wait';

const PARTNERS = ['31880826', '42273459', '56431109'];

describe('GET /account/balance (decisions §5)', () => {
  it('lists every partner with its TRANSACTIONAL and PROPRIETARY accounts, all zero at onboarding', async () => {
    const api = await Integrator.create();
    const body = await getBalance(api);
    expect(body.currency).toBe('BRL');
    expect(body.asOf).toMatch(BRT_DATE);
    expect(body.totals).toEqual({ transactional: 0, proprietary: 0, total: 0 });
    expect(body.partners.map((p) => p.ispb)).toEqual(PARTNERS);
    for (const partner of body.partners) {
      const onboarded = api.client.accounts.filter((a) => a.bank.ispb === partner.ispb);
      expect(partner.bank).toBe(onboarded[0]!.bank.name);
      expect(partner.accounts).toEqual(
        ['TRANSACTIONAL', 'PROPRIETARY'].map((type) => {
          const a = onboarded.find((x) => x.type === type)!;
          return { number: a.number, branch: a.branch, type, balance: 0, available: 0, blocked: 0 };
        }),
      );
    }
    // Only the client's partners, in its own order.
    const single = await Integrator.create({ partners: [PARTNERS[2], PARTNERS[0]] });
    expect((await getBalance(single)).partners.map((p) => p.ispb)).toEqual([PARTNERS[2], PARTNERS[0]]);
  });

  it('answers ledger balances with totals, and available = balance − money held for operations in flight', async () => {
    const api = await Integrator.create();
    const t0 = accountOf(api, 'TRANSACTIONAL', 0);
    const p0 = accountOf(api, 'PROPRIETARY', 0);
    const p1 = accountOf(api, 'PROPRIETARY', 1);
    const cashIn = await createCashIn(api, { amount: 30 });
    await payCashIn(api, cashIn.internalCode);
    await deposit(api, t0.number, 10.1);
    await deposit(api, p0.number, 100);
    await deposit(api, p1.number, 0.05);
    expect((await rebalance(api, 'top-up', { amount: 25.5 })).status).toBe(201);

    const body = await getBalance(api);
    expect(balanceOf(body, t0.number)).toMatchObject({ balance: 65.6, available: 65.6 });
    expect(balanceOf(body, p0.number)).toMatchObject({ balance: 74.5, available: 74.5 });
    expect(balanceOf(body, p1.number)).toMatchObject({ balance: 0.05, available: 0.05 });
    expect(body.totals).toEqual({ transactional: 65.6, proprietary: 74.55, total: 140.15 });

    // A refund in flight holds its amount: the ledger balance stays, available drops.
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'CUSTOMER_REQUEST',
    });
    expect(refund.status).toBe(202);
    const during = await getBalance(api);
    expect(balanceOf(during, t0.number)).toMatchObject({ balance: 65.6, available: 35.6 });
    expect(during.totals.transactional).toBe(65.6);
    // Money held is not available to a sweep either.
    const sweep = await rebalance(api, 'sweep', { amount: 35.61 });
    expect(await problemCode(sweep)).toBe('INSUFFICIENT_TRANSACTIONAL_FUNDS');
    // Once the devolution settles the debit replaces the hold.
    await waitUntil(
      () => getBalance(api),
      (b) => balanceOf(b, t0.number).balance !== 65.6,
      OUTCOME_MS,
      'the devolution to settle (its debit replacing the hold)',
    );
    expect(balanceOf(await getBalance(api), t0.number)).toMatchObject({ balance: 35.6, available: 35.6 });
  });

  it('answers the balance at an instant from the ledger; before the start date 422; malformed at 400', async () => {
    const api = await Integrator.create();
    const t0 = accountOf(api, 'TRANSACTIONAL');
    await deposit(api, t0.number, 10);
    await sleep(15);
    await deposit(api, t0.number, 5);
    await sleep(15);
    await rebalance(api, 'sweep', { amount: 7 });
    const items = await fullStatement(api, t0.number);
    expect(items.map((i) => i.balanceAfter)).toEqual([10, 15, 8]);
    const at = (date: string) => encodeURIComponent(date.slice(0, 23));

    for (const [index, expected] of [
      [0, 10],
      [1, 15],
      [2, 8],
    ] as const) {
      const body = await getBalance(api, `at=${at(items[index]!.date)}`);
      expect(body.asOf).toBe(items[index]!.date);
      const account = balanceOf(body, t0.number);
      expect(account).toEqual({
        number: t0.number,
        branch: t0.branch,
        type: 'TRANSACTIONAL',
        balance: expected,
      });
      expect(body.totals.total).toBe(index === 2 ? 15 : expected);
    }
    // One millisecond before the first entry: nothing yet.
    const before = new Date(Date.parse(items[0]!.date) - 1 - 3 * 3600_000).toISOString().slice(0, 23);
    expect(balanceOf(await getBalance(api, `at=${before}`), t0.number).balance).toBe(0);
    // A plain date is the end of that day; an instant in the future reads as now.
    const today = await getBalance(api, `at=${api.client.statementStartDate}`);
    expect(today.totals).toEqual({ transactional: 8, proprietary: 7, total: 15 });
    const future = await getBalance(api, 'at=2099-01-01T00:00:00Z');
    expect(Date.parse(future.asOf)).toBeLessThanOrEqual(Date.now());
    expect(future.totals.total).toBe(15);
    // The start date itself is accepted; anything before it is not.
    expect((await api.get(`/account/balance?at=${api.client.statementStartDate}T00:00:00`)).status).toBe(200);
    const dated = await Integrator.create({ statementStartDate: '2024-03-10' });
    for (const at of ['2024-03-09', '2024-03-10T02:59:59.999Z', '2000-01-01T00:00:00']) {
      const res = await dated.get(`/account/balance?at=${encodeURIComponent(at)}`);
      expect(res.status, at).toBe(422);
      const body = (await res.json()) as { code: string; detail: string };
      expect(body.code).toBe('RETROACTIVE_BALANCE_NOT_IMPLEMENTED');
      expect(body.detail).toContain('2024-03-10');
    }
    expect((await dated.get('/account/balance?at=2024-03-10')).status).toBe(200);
    for (const query of ['at=yesterday', 'at=2024-02-30', 'at=2024-03-10T25:00:00', 'at=', 'at=1&at=2']) {
      const res = await api.get(`/account/balance?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.errors)).toEqual(['at']);
    }
    expect((await call('/account/balance')).status).toBe(401);
  });
});

describe('POST /account/rebalance/top-up and /sweep (decisions §5)', () => {
  it('moves money between the partner accounts in two legs and answers 201 COMPLETED', async () => {
    const api = await Integrator.create();
    const t0 = accountOf(api, 'TRANSACTIONAL', 0);
    const p0 = accountOf(api, 'PROPRIETARY', 0);
    const t1 = accountOf(api, 'TRANSACTIONAL', 1);
    const p1 = accountOf(api, 'PROPRIETARY', 1);
    await deposit(api, p0.number, 100);
    await deposit(api, t1.number, 60);

    const topUp = await rebalance(api, 'top-up', { amount: 40.1 });
    expect(topUp.status).toBe(201);
    const body = (await topUp.json()) as RebalanceBody;
    expect(body).toEqual({
      rebalanceId: expect.stringMatching(/^RB[0-9A-F]{32}$/),
      direction: 'TOP_UP',
      amount: 40.1,
      ispb: PARTNERS[0],
      from: { number: p0.number, type: 'PROPRIETARY' },
      to: { number: t0.number, type: 'TRANSACTIONAL' },
      status: 'COMPLETED',
      createdAt: expect.stringMatching(BRT_DATE),
    });
    const sweep = await rebalance(api, 'sweep', { amount: 60, ispb: PARTNERS[1] });
    expect(sweep.status).toBe(201);
    expect(await sweep.json()).toMatchObject({
      direction: 'SWEEP',
      amount: 60,
      ispb: PARTNERS[1],
      from: { number: t1.number, type: 'TRANSACTIONAL' },
      to: { number: p1.number, type: 'PROPRIETARY' },
    });

    const balances = await getBalance(api);
    expect(balanceOf(balances, p0.number).balance).toBe(59.9);
    expect(balanceOf(balances, t0.number).balance).toBe(40.1);
    expect(balanceOf(balances, t1.number).balance).toBe(0);
    expect(balanceOf(balances, p1.number).balance).toBe(60);
    expect(balances.totals.total).toBe(160);

    const out = (await fullStatement(api, p0.number)).at(-1)!;
    const into = (await fullStatement(api, t0.number)).at(-1)!;
    expect(out).toMatchObject({ direction: 'DEBIT', type: 'TRANSFER_OUT', amount: 40.1, balanceAfter: 59.9 });
    expect(into).toMatchObject({
      direction: 'CREDIT',
      type: 'TRANSFER_IN',
      amount: 40.1,
      balanceAfter: 40.1,
    });
    expect(out.date).toBe(into.date);
    expect(out.description).toContain(body.rebalanceId);
    expect(into.description).toContain(body.rebalanceId);
    const legs = await sqlRows<{ type: string; account_number: string }>(
      api.client.clientId,
      'SELECT type, account_number FROM ledger_entries WHERE ref = ? ORDER BY seq',
      `rebalance:${body.rebalanceId}`,
    );
    expect(legs).toEqual([
      { type: 'TRANSFER_OUT', account_number: p0.number },
      { type: 'TRANSFER_IN', account_number: t0.number },
    ]);
  });

  it('validates the body (400) before the signature, and the amount rule (422 INVALID_AMOUNT) after it', async () => {
    const api = await Integrator.create();
    await deposit(api, accountOf(api, 'PROPRIETARY').number, 10);
    const invalid: [unknown, string][] = [
      [{}, 'amount'],
      [{ amount: '10' }, 'amount'],
      [{ amount: null }, 'amount'],
      [{ amount: 1.234 }, 'amount'],
      [{ amount: -0.001 }, 'amount'],
      [{ amount: 1, ispb: '3188082' }, 'ispb'],
      [{ amount: 1, ispb: 31880826 }, 'ispb'],
      [[1], 'body'],
    ];
    for (const [body, field] of invalid) {
      for (const direction of ['top-up', 'sweep'] as const) {
        // Unsigned: the invalid body is still the answer (spec §5: body before signature).
        const res = await api.post(`/account/rebalance/${direction}`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const problem = (await res.json()) as { code: string; errors: Record<string, string[]> };
        expect(problem.code).toBe('VALIDATION_ERROR');
        expect(Object.keys(problem.errors)).toContain(field);
      }
    }
    for (const amount of [0, -5, -0.01]) {
      const unsigned = await api.post('/account/rebalance/top-up', { amount });
      expect(await problemCode(unsigned)).toBe('DIGITAL_SIGNATURE_REQUIRED');
      const res = await rebalance(api, 'top-up', { amount });
      expect(res.status).toBe(422);
      expect(await problemCode(res)).toBe('INVALID_AMOUNT');
      expect(await problemCode(await rebalance(api, 'sweep', { amount }))).toBe('INVALID_AMOUNT');
    }
    // Well-formed but not one of the client's partners: 400 naming ispb (checked after the signature).
    const partial = await Integrator.create({ partners: [PARTNERS[0]] });
    for (const ispb of ['99999999', PARTNERS[1]]) {
      const res = await rebalance(partial, 'top-up', { amount: 1, ispb });
      expect(res.status, ispb).toBe(400);
      const problem = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(problem.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(problem.errors)).toEqual(['ispb']);
    }
    expect((await getBalance(api)).totals).toEqual({ transactional: 0, proprietary: 10, total: 10 });
  });

  it('requires the DigitalSignature: 401 missing or wrong, 403 without a CryptoToken, 401 without a JWT', async () => {
    const api = await Integrator.create();
    await deposit(api, accountOf(api, 'PROPRIETARY').number, 10);
    expect(await problemCode(await api.post('/account/rebalance/top-up', { amount: 1 }))).toBe(
      'DIGITAL_SIGNATURE_REQUIRED',
    );
    const wrong = await api.post(
      '/account/rebalance/sweep',
      { amount: 1 },
      { digitalsignature: 'ab'.repeat(32) },
    );
    expect(wrong.status).toBe(401);
    expect(await problemCode(wrong)).toBe('DIGITAL_SIGNATURE_INVALID');
    const otherKey = await api.post(
      '/account/rebalance/top-up',
      { amount: 1 },
      { digitalsignature: await sign('another-crypto-token', api.token) },
    );
    expect(await problemCode(otherKey)).toBe('DIGITAL_SIGNATURE_INVALID');
    const anonymous = await call('/account/rebalance/top-up', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1 }),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect((await admin(`/admin/clients/${api.client.clientId}/crypto-token`, 'DELETE')).status).toBe(204);
    const noToken = await rebalance(api, 'top-up', { amount: 1 });
    expect(noToken.status).toBe(403);
    expect(await problemCode(noToken)).toBe('CRYPTO_TOKEN_NOT_CONFIGURED');
    expect((await getBalance(api)).totals).toEqual({ transactional: 0, proprietary: 10, total: 10 });
  });

  it('refuses more than the source account has available: 422 INSUFFICIENT_*_FUNDS, nothing moves', async () => {
    const api = await Integrator.create();
    const t0 = accountOf(api, 'TRANSACTIONAL');
    const p0 = accountOf(api, 'PROPRIETARY');
    await deposit(api, p0.number, 50);
    await deposit(api, t0.number, 20);
    const topUp = await rebalance(api, 'top-up', { amount: 50.01 });
    expect(topUp.status).toBe(422);
    expect(await problemCode(topUp)).toBe('INSUFFICIENT_PROPRIETARY_FUNDS');
    const sweep = await rebalance(api, 'sweep', { amount: 20.01 });
    expect(await problemCode(sweep)).toBe('INSUFFICIENT_TRANSACTIONAL_FUNDS');
    // The other partners' accounts are empty.
    expect(await problemCode(await rebalance(api, 'top-up', { amount: 1, ispb: PARTNERS[2] }))).toBe(
      'INSUFFICIENT_PROPRIETARY_FUNDS',
    );
    expect((await fullStatement(api, p0.number)).map((i) => i.type)).toEqual(['TRANSFER_IN']);
    expect((await fullStatement(api, t0.number)).map((i) => i.type)).toEqual(['TRANSFER_IN']);
    // Exactly what is available moves.
    expect((await rebalance(api, 'top-up', { amount: 50 })).status).toBe(201);
    expect((await rebalance(api, 'sweep', { amount: 70 })).status).toBe(201);
    const body = await getBalance(api);
    expect(balanceOf(body, t0.number).balance).toBe(0);
    expect(balanceOf(body, p0.number).balance).toBe(70);
  });

  it('honours X-Idempotency-Key: replays the stored 201, refuses another body, does not store failures', async () => {
    const api = await Integrator.create();
    const p0 = accountOf(api, 'PROPRIETARY');
    const key = crypto.randomUUID();
    const failed = await rebalance(api, 'top-up', { amount: 10 }, { 'x-idempotency-key': key });
    expect(await problemCode(failed)).toBe('INSUFFICIENT_PROPRIETARY_FUNDS');
    await deposit(api, p0.number, 30);
    const first = await rebalance(api, 'top-up', { amount: 10 }, { 'x-idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const original = await first.json();
    const stored = await sqlRows(
      api.client.clientId,
      'SELECT status FROM idempotency_keys WHERE key = ?',
      storedKey(key),
    );
    expect(stored).toEqual([{ status: 201 }]);
    const replay = await rebalance(api, 'top-up', { amount: 10 }, { 'x-idempotency-key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(original);
    expect((await fullStatement(api, p0.number)).map((i) => i.type)).toEqual(['TRANSFER_IN', 'TRANSFER_OUT']);
    for (const [direction, body] of [
      ['top-up', { amount: 11 }],
      ['sweep', { amount: 10 }],
    ] as const) {
      const reused = await rebalance(api, direction, body, { 'x-idempotency-key': key });
      expect(reused.status).toBe(422);
      expect(await problemCode(reused)).toBe('IDEMPOTENCY_KEY_REUSED');
    }
    const tooLong = await rebalance(api, 'sweep', { amount: 1 }, { 'x-idempotency-key': 'k'.repeat(101) });
    expect(tooLong.status).toBe(400);
    expect(await problemCode(tooLong)).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(balanceOf(await getBalance(api), p0.number).balance).toBe(20);
  });

  it('never moves one leg alone: a failure of the second leg rolls back the first and the key', async () => {
    const api = await Integrator.create();
    const t0 = accountOf(api, 'TRANSACTIONAL');
    await deposit(api, t0.number, 40);
    await sqlRows(
      api.client.clientId,
      `CREATE TRIGGER break_transfer_in BEFORE INSERT ON ledger_entries WHEN NEW.type = 'TRANSFER_IN'
       BEGIN SELECT RAISE(ABORT, 'second leg failed'); END`,
    );
    const key = crypto.randomUUID();
    const broken = await rebalance(api, 'sweep', { amount: 15 }, { 'x-idempotency-key': key });
    expect(broken.status).toBe(500);
    const problem = (await broken.clone().json()) as { traceId?: string };
    expect(problem.traceId).toBe(broken.headers.get('x-request-id'));
    expect(await problemCode(broken)).toBe('INTERNAL_ERROR');
    // The ledger answers the failure: nothing crosses its RPC boundary as an exception (which the
    // runtime reports as uncaught, with no context).
    const direct = ledgerOf(env, api.client.clientId).rebalance({
      direction: 'SWEEP',
      amountCents: 1500,
      requestHash: 'direct',
    });
    await expect(direct).resolves.toMatchObject({ ok: false, problem: { code: 'INTERNAL_ERROR' } });
    const entries = await sqlRows(api.client.clientId, 'SELECT type FROM ledger_entries ORDER BY seq');
    expect(entries).toEqual([{ type: 'TRANSFER_IN' }]);
    expect(balanceOf(await getBalance(api), t0.number)).toMatchObject({ balance: 40, available: 40 });
    expect(await sqlRows(api.client.clientId, 'SELECT key FROM idempotency_keys')).toEqual([]);
    await sqlRows(api.client.clientId, 'DROP TRIGGER break_transfer_in');
    const retried = await rebalance(api, 'sweep', { amount: 15 }, { 'x-idempotency-key': key });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect((await getBalance(api)).totals).toEqual({ transactional: 25, proprietary: 15, total: 40 });
  });

  it('is POST only; GET on a rebalance path is 405', async () => {
    const api = await Integrator.create();
    const res = await api.get('/account/rebalance/top-up');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('POST /sandbox/accounts/{number}/deposit (decisions §4)', () => {
  it('credits the account with a TRANSFER_IN and answers 201 with the statement item', async () => {
    const api = await Integrator.create();
    const p1 = accountOf(api, 'PROPRIETARY', 1);
    const first = await api.post(`/sandbox/accounts/${p1.number}/deposit`, { amount: 12.34 });
    expect(first.status).toBe(201);
    const body = (await first.json()) as DepositBody;
    expect(body).toEqual({
      account: { number: p1.number, type: 'PROPRIETARY', bank: { ispb: PARTNERS[1], name: p1.bank.name } },
      entry: {
        id: expect.any(String),
        date: expect.stringMatching(BRT_DATE),
        direction: 'CREDIT',
        type: 'TRANSFER_IN',
        typeRaw: 'TRANSFERENCIA RECEBIDA',
        amount: 12.34,
        balanceAfter: 12.34,
        description: expect.any(String),
      },
      balance: 12.34,
      available: 12.34,
    });
    const second = await deposit(api, p1.number, 0.66);
    expect(second.balance).toBe(13);
    expect(await fullStatement(api, p1.number)).toEqual([body.entry, second.entry]);
    // No signature is needed; JWT and ApplicationToken are.
    const anonymous = await call(`/sandbox/accounts/${p1.number}/deposit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1 }),
    });
    expect(anonymous.status).toBe(401);
    const noApp = await call(`/sandbox/accounts/${p1.number}/deposit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}` },
      body: JSON.stringify({ amount: 1 }),
    });
    expect(noApp.status).toBe(401);
  });

  it('answers 404 ACCOUNT_NOT_FOUND for foreign and nonexistent accounts alike; 400 for bad input', async () => {
    const api = await Integrator.create();
    const other = await Integrator.create();
    const foreignNumber = accountOf(other, 'TRANSACTIONAL').number;
    const foreign = await api.post(`/sandbox/accounts/${foreignNumber}/deposit`, { amount: 1 });
    const missing = await api.post('/sandbox/accounts/12345678-9/deposit', { amount: 1 });
    expect(foreign.status).toBe(404);
    const body = await foreign.json();
    expect(body).toEqual(await missing.json());
    expect((body as { code: string }).code).toBe('ACCOUNT_NOT_FOUND');
    expect((await getBalance(other)).totals.total).toBe(0);
    const number = accountOf(api, 'TRANSACTIONAL').number;
    for (const amount of [0, -1, '1', 1.001, null, 10_000_000_000]) {
      const res = await api.post(`/sandbox/accounts/${number}/deposit`, { amount });
      expect(res.status, String(amount)).toBe(400);
      expect(await problemCode(res)).toBe('VALIDATION_ERROR');
    }
    const malformed = await api.post(`/sandbox/accounts/${'9'.repeat(33)}/deposit`, { amount: 1 });
    expect(malformed.status).toBe(400);
    expect((await getBalance(api)).totals.total).toBe(0);
  });
});

describe('fuzzing the account routes: no input answers 5xx', () => {
  it('answers random paths, queries, bodies and credentials with < 500 and Problem Details', async () => {
    const api = await Integrator.create();
    const own = accountOf(api, 'TRANSACTIONAL').number;
    await deposit(api, own, 5);
    const signature = await sign(api.client.cryptoToken, api.token);
    const templates = [
      ['GET', '/account/{n}/statement'],
      ['GET', '/account/balance'],
      ['POST', '/account/rebalance/top-up'],
      ['POST', '/account/rebalance/sweep'],
      ['POST', '/sandbox/accounts/{n}/deposit'],
    ] as const;
    const segment = fc.oneof(
      fc.constant(own),
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
      fc.constantFrom('%', '%zz', '..', '%00', 'A'.repeat(300), '12345678-9'),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('2024-01-01', api.client.statementStartDate, '2100-12-31T23:59:59.999Z', '-1', '1e3'),
    );
    const query = fc.dictionary(fc.constantFrom('from', 'to', 'limit', 'order', 'cursor', 'at'), value, {
      maxKeys: 5,
    });
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify({ amount: v, ispb: v })),
      fc
        .record({ amount: fc.double(), ispb: fc.constantFrom('31880826', '00000000', '1') })
        .map((b) => JSON.stringify(b)),
      fc.json(),
      fc.string({ maxLength: 50 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...templates),
        segment,
        query,
        body,
        fc.boolean(),
        async ([method, template], n, params, payload, signed) => {
          const qs = new URLSearchParams(params).toString();
          const res = await call(`${template.replace('{n}', n)}${qs ? `?${qs}` : ''}`, {
            method,
            headers: api.headers(signed ? { digitalsignature: signature } : {}),
            ...(method === 'POST' && { body: payload }),
          });
          const text = await res.text();
          expect(res.status, `${method} ${template} ${n} ${qs} ${payload}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.headers.get('content-type')).toBe('application/problem+json');
            expect(JSON.parse(text).status).toBe(res.status);
          }
        },
      ),
      { numRuns: 250 },
    );
    // Whatever was accepted, the books still add up.
    const items = await fullStatement(api, own);
    const net = items.reduce(
      (s, i) => s + (i.direction === 'CREDIT' ? 1 : -1) * Math.round(i.amount * 100),
      0,
    );
    expect(Math.round(balanceOf(await getBalance(api), own).balance * 100)).toBe(net);
  });
});
