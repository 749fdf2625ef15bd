/**
 * The amount cap (decisions §5): 9,999,999,999.99 for every amount a client sends and for sandbox
 * deposits; above it 400 VALIDATION_ERROR naming `amount`, never a rounded 201 or a 500. Balances
 * stay exact integers of centavos: the statement's balanceAfter chain holds for amounts near the cap.
 */
import { runInDurableObject } from 'cloudflare:test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { postEntry } from '../../durable-objects/ledger/ledger/ledger';
import { parseBrCode } from '../../src/domain/brcode';
import { MAX_AMOUNT_CENTS } from '../../src/domain/money';
import { accountOf, deposit, fullStatement } from '../support/account';
import { cashOutBody } from '../support/cash-out';
import { cashInBody, Integrator } from '../support/harness';
import { ledgerStub } from '../support/ledger';
import { cashIns, cashOuts, ledgerEntries } from '../support/ledger-reads';
import { writeIn } from '../support/ledger-writes';

async function expectAmountRefused(res: Response) {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
  expect(body.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(body.errors)).toEqual(['amount']);
  expect(body.errors.amount?.join(' ')).toContain('9999999999.99');
}

describe('maximum amount (decisions §5)', () => {
  it('refuses amounts above the cap on every route a client sends one, before anything happens', async () => {
    const api = await Integrator.create();
    const number = accountOf(api, 'TRANSACTIONAL').number;
    for (const amount of [10_000_000_000, 80_000_000_000_000.09, 9_999_999_999.991, 1e300]) {
      await expectAmountRefused(await api.post('/cash-in', cashInBody({ amount })));
      await expectAmountRefused(
        await api.post(
          '/cash-in',
          cashInBody({ amount, openFinance: { redirectUrl: 'https://example.com/back' } }),
        ),
      );
      await expectAmountRefused(await api.signedPost('/cash-out', cashOutBody({ amount })));
      await expectAmountRefused(await api.signedPost('/account/rebalance/top-up', { amount }));
      await expectAmountRefused(await api.post(`/sandbox/accounts/${number}/deposit`, { amount }));
    }
    const { clientId } = api.client;
    const rows = [
      {
        n:
          (await cashIns(clientId)).length +
          (await cashOuts(clientId)).length +
          (await ledgerEntries(clientId)).length,
      },
    ];
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('accepts exactly the cap: the BR Code carries it in field 54 and the amount reads back exact', async () => {
    const api = await Integrator.create();
    const res = await api.post(
      '/cash-in',
      cashInBody({ amount: 9_999_999_999.99, includeQrCodeImage: true }),
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as { amount: number; pixData: { copyAndPaste: string } };
    expect(created.amount).toBe(9_999_999_999.99);
    const parsed = parseBrCode(created.pixData.copyAndPaste);
    expect(parsed.ok && parsed.fields.amountCents).toBe(MAX_AMOUNT_CENTS);
    const open = await api.post(
      '/cash-in',
      cashInBody({ amount: 9_999_999_999.99, openFinance: { redirectUrl: 'https://example.com/back' } }),
    );
    expect(open.status).toBe(201);
    expect(((await open.json()) as { amount: number }).amount).toBe(9_999_999_999.99);
  });

  it('keeps the statement balanceAfter chain exact for deposits near the cap (property)', async () => {
    const near = fc.integer({ min: MAX_AMOUNT_CENTS - 1_000, max: MAX_AMOUNT_CENTS });
    const small = fc.integer({ min: 1, max: 999 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(near, small), { minLength: 1, maxLength: 6 }), async (amounts) => {
        const api = await Integrator.create();
        const number = accountOf(api, 'TRANSACTIONAL').number;
        for (const cents of amounts) await deposit(api, number, cents / 100);
        const items = await fullStatement(api, number);
        expect(items.map((i) => Math.round(i.amount * 100))).toEqual(amounts);
        let balance = 0;
        for (const item of items) {
          balance += Math.round(item.amount * 100);
          // The JSON decimal itself is exact: at most two places, equal to the running sum.
          expect(String(item.balanceAfter)).toMatch(/^\d+(\.\d{1,2})?$/);
          expect(Math.round(Number(item.balanceAfter) * 100)).toBe(balance);
        }
      }),
      { numRuns: 6, seed: 19 },
    );
  });

  it('refuses a ledger entry that would take a balance past an exact integer of centavos', async () => {
    const api = await Integrator.create();
    const number = accountOf(api, 'TRANSACTIONAL').number;
    await runInDurableObject(ledgerStub(api.client.clientId), (instance) => {
      const db = (instance as unknown as { db: Parameters<typeof postEntry>[0] }).db;
      const state = { balance: Number.MAX_SAFE_INTEGER - 1 };
      writeIn.setBalance(db, number, state.balance);
      expect(() =>
        postEntry(db, { accountNumber: number, type: 'PIX_IN', amount: 3, ref: 'test', at: Date.now() }),
      ).toThrow(/exact integer/);
    });
    expect([{ n: (await ledgerEntries(api.client.clientId)).length }]).toEqual([{ n: 0 }]);
  });
});
