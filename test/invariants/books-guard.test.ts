/**
 * The ledger asserts the money invariants where money moves (durable-objects/ledger/ledger/
 * books-guard.ts): for each rule, a staging-only hook spoils the write just before its assertion,
 * and the operation's transaction aborts with the books exactly as they were. Without the hook the
 * same operation goes through and the books still check out against the partner's.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  allSuspenseEntries,
  findReceipt,
  insertReceipt,
  recordReturnStep,
} from '../../durable-objects/ledger/cash-in/unapplied-store';
import type { TamperedRule } from '../../durable-objects/staging/books-tamper';
import type { StagingClientLedger } from '../../durable-objects/staging/client-ledger';
import { checkBooks } from '../../src/domain/money-invariants';
import { createCashIn, getCashIn, payCashIn, waitFor } from '../support/cash-in';
import { createCashOut, deposit, getCashOut, settled } from '../support/cash-out';
import { cronSweep } from '../support/crash';
import { Integrator } from '../support/harness';
import { assertBooks, booksSnapshot } from '../support/invariants';

const ledger = (api: Integrator) =>
  (env.CLIENT_LEDGER as DurableObjectNamespace<StagingClientLedger>).getByName(api.client.clientId);

const tamper = (api: Integrator, rule: TamperedRule | null) => ledger(api).tamperBooks(rule);

/** Waits until the armed tampering has spoiled a write (the executor runs on its alarm). */
const spoiled = (api: Integrator) =>
  waitFor(
    () => ledger(api).tamperedWrites(),
    (n) => n > 0,
  );

const transactional = (api: Integrator) => api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;

describe('money invariants asserted in the write path', () => {
  it('balance chain: a spoiled balanceAfter aborts the deposit; the books are unchanged', async () => {
    const api = await Integrator.create();
    await deposit(api, 10);
    const before = await booksSnapshot(api.client.clientId);
    await tamper(api, 'balance-chain');
    const res = await api.post(`/sandbox/accounts/${transactional(api).number}/deposit`, { amount: 5 });
    expect(res.status).toBe(500);
    expect(await tamper(api, null)).toBe(1);
    expect(await booksSnapshot(api.client.clientId)).toEqual(before);
    await deposit(api, 5);
    const books = await assertBooks(api);
    expect(books.entries.map((e) => e.balance_after)).toEqual([1000, 1500]);
  });

  it('balance chain: a spoiled PIX_IN aborts the payment; the Cash-In stays unpaid', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { amount: 12.34 });
    const before = await booksSnapshot(api.client.clientId);
    await tamper(api, 'balance-chain');
    const res = await api.post(`/sandbox/cash-in/${created.internalCode}/pay`, {});
    expect(res.status).not.toBe(200);
    expect(await tamper(api, null)).toBeGreaterThan(0);
    expect(await booksSnapshot(api.client.clientId)).toEqual(before);
    expect((await getCashIn(api, created.internalCode)).status).toBe('AWAITING_PAYMENT');
    expect((await payCashIn(api, created.internalCode)).status).toBe('PAID');
    await assertBooks(api);
  });

  for (const rule of ['hold', 'reservation'] as const) {
    it(`${rule}: a spoiled Cash-Out reservation aborts the executor's pass; nothing is held or paid`, async () => {
      const api = await Integrator.create();
      await deposit(api, 50);
      await tamper(api, rule);
      const accepted = await createCashOut(api, { amount: 20 });
      await spoiled(api);
      const during = await booksSnapshot(api.client.clientId);
      expect(during.holds).toEqual([]);
      expect(during.accounts.find((a) => a.number === transactional(api).number)?.balance).toBe(5000);
      expect(checkBooks(during)).toEqual([]);
      expect((await getCashOut(api, accepted.transactionId)).status).toBe('PROCESSING');
      await tamper(api, null);
      await cronSweep(api);
      expect((await settled(api, accepted.transactionId)).status).toBe('COMPLETED');
      const books = await assertBooks(api);
      expect(books.balances.get(transactional(api).number)).toBe(3000);
    });
  }

  it('hold: a spoiled refund hold aborts the refund; the Cash-In stays PAID with nothing held', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { amount: 40 });
    await payCashIn(api, created.internalCode);
    const before = await booksSnapshot(api.client.clientId);
    await tamper(api, 'hold');
    const res = await api.signedPost(`/cash-in/${created.internalCode}/refund`, {
      reason: 'CUSTOMER_REQUEST',
    });
    expect(res.status).toBe(500);
    expect(await tamper(api, null)).toBe(1);
    expect(await booksSnapshot(api.client.clientId)).toEqual(before);
    expect((await getCashIn(api, created.internalCode)).status).toBe('PAID');
    await assertBooks(api);
  });

  it('suspense: a return that would take the suspense account below zero aborts; the receipt stays in flight', async () => {
    const api = await Integrator.create();
    const ispb = transactional(api).bank.ispb;
    const e2e = `E${ispb}20261129000000000000001`;
    await runInDurableObject(ledger(api), async (instance: StagingClientLedger, state) => {
      const db = (instance as unknown as { db: Parameters<typeof insertReceipt>[0] }).db;
      const receipt = {
        endToEndId: e2e,
        id: 'receipt-1',
        ispb,
        txid: null,
        amount: 700,
        receivedAt: Date.now(),
        reason: 'UNKNOWN_CHARGE' as const,
        returnId: 'return-1',
        stage: 'SENT' as const,
        returnEndToEndId: null,
        returnedAt: null,
        failure: null,
      };
      state.storage.transactionSync(() => insertReceipt(db, receipt, Date.now()));
      const step = {
        stage: 'RETURNED' as const,
        returnEndToEndId: `D${e2e.slice(1)}`,
        returnedAt: Date.now(),
      };
      const read = { ...receipt, bookedAt: Date.now() };
      instance.tamperBooks('suspense');
      expect(() => state.storage.transactionSync(() => recordReturnStep(db, read, step, Date.now()))).toThrow(
        /money invariant violated \(suspense\)/,
      );
      expect(instance.tamperBooks(null)).toBe(1);
      const rows = [{ stage: findReceipt(db, e2e)?.stage, n: allSuspenseEntries(db).length }];
      expect(rows).toEqual([{ stage: 'SENT', n: 1 }]);
      state.storage.transactionSync(() => recordReturnStep(db, read, step, Date.now()));
    });
    const books = await booksSnapshot(api.client.clientId);
    expect(books.suspense.map((s) => [s.direction, s.amount])).toEqual([
      ['CREDIT', 700],
      ['DEBIT', 700],
    ]);
    expect(checkBooks(books)).toEqual([]);
  });
});
