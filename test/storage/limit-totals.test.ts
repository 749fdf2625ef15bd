/**
 * The withdrawal limits' running totals (limit_totals) across a BRT day and month boundary
 * (America/Sao_Paulo, UTC-03:00): a Cash-Out counts in the day and month it was requested in, BRT,
 * and its cancellation after midnight takes its amount back from that day and month, not from the
 * new ones. The clock is the isolate's (the test, the Worker and the ClientLedger share it), moved
 * across 31 Oct 23:59:40 BRT → 1 Nov 00:00:05 BRT — both instants are 1 Nov in UTC, so totals keyed
 * by the UTC date would refuse the new day's Cash-Outs. Each step is checked against a recount.
 * Concurrent Cash-Outs racing for a day's and a payee's limit are here too; crashes between steps
 * are covered by test/crash/cash-out.test.ts, whose assertBooks recounts the totals the same way.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCashOut, deposit, settled } from '../support/cash-out';
import { admin, Integrator } from '../support/harness';
import { checkLimitTotals } from '../support/invariants';
import { ledgerStub } from '../support/ledger';
import { limitTotals } from '../support/ledger-reads';

const BEFORE_MIDNIGHT = new Date('2026-10-31T23:59:40-03:00');
const AFTER_MIDNIGHT = new Date('2026-11-01T00:00:05-03:00');

const payee = (pixKey: string) => ({
  name: 'Ana Beneficiária',
  document: '12345678909',
  destination: { type: 'PIX', pixKeyType: 'EVP', pixKey },
});

/** The stored totals that are not zero, P's payee-day rows named `P|<day>|P`. */
const totals = async (clientId: string, pixKey: string) =>
  Object.fromEntries(
    (await limitTotals(clientId))
      .filter((r) => r.cents !== 0)
      .map((r) => [r.key.replace(`|PIX:EVP:${pixKey}`, '|P'), r.cents]),
  );

afterEach(() => {
  vi.useRealTimers();
});

describe('limit running totals across the BRT day and month rollover', () => {
  it('count each Cash-Out in its own BRT day and month, and release a cancellation there', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: BEFORE_MIDNIGHT, shouldAdvanceTime: true });
    const api = await Integrator.create();
    const clientId = api.client.clientId;
    await deposit(api, 10_000);
    await admin(`/admin/clients/${clientId}`, 'PATCH', {
      limits: { perTransaction: 1000, daily: 300, monthly: 450, perPayeeDaily: 200 },
    });
    const pKey = crypto.randomUUID();
    const p = payee(pKey);

    // 31 Oct BRT: 200 to P, then 100 held for approval (reserved, counted), then the day is full.
    const a = await settled(api, (await createCashOut(api, { amount: 200, payee: p })).transactionId);
    expect(a.status, JSON.stringify(a.failure)).toBe('COMPLETED');
    expect(a.requestedAt).toMatch(/^2026-10-31T23:59/);
    await admin(`/admin/clients/${clientId}`, 'PATCH', { approvalThreshold: 100 });
    const held = await createCashOut(api, { amount: 100 });
    expect((await settled(api, held.transactionId, ['PENDING'])).status).toBe('PENDING');
    await admin(`/admin/clients/${clientId}`, 'PATCH', { approvalThreshold: null });
    const full = await settled(api, (await createCashOut(api, { amount: 0.01 })).transactionId);
    expect(full.failure!.code).toBe('DAILY_LIMIT_EXCEEDED');
    await checkLimitTotals(clientId);

    // 1 Nov BRT. Rejecting the held one gives its 100 back to 31 Oct and October, not to today.
    vi.setSystemTime(AFTER_MIDNIGHT);
    const rejected = await admin(`/admin/clients/${clientId}/cash-out/${held.transactionId}/reject`, 'POST');
    expect(rejected.status).toBe(200);
    expect((await settled(api, held.transactionId)).status).toBe('CANCELLED');
    await checkLimitTotals(clientId);
    expect(await totals(clientId, pKey)).toEqual({
      'D|2026-10-31': 20000,
      'M|2026-10': 20000,
      'P|2026-10-31|P': 20000,
    });

    // A new day for the payee and the client, a new month: 200 to P and 100 fit (month 300 ≤ 450,
    // which October's 200 would have broken); then today's 300 are full again.
    const d = await settled(api, (await createCashOut(api, { amount: 200, payee: p })).transactionId);
    expect(d.status, JSON.stringify(d.failure)).toBe('COMPLETED');
    expect(d.requestedAt).toMatch(/^2026-11-01T00:00/);
    const e = await settled(api, (await createCashOut(api, { amount: 100 })).transactionId);
    expect(e.status, JSON.stringify(e.failure)).toBe('COMPLETED');
    const over = await settled(api, (await createCashOut(api, { amount: 0.01 })).transactionId);
    expect(over.failure!.code).toBe('DAILY_LIMIT_EXCEEDED');
    await checkLimitTotals(clientId);
    const now = await totals(clientId, pKey);
    expect(now['D|2026-11-01']).toBe(30000);
    expect(now['M|2026-11']).toBe(30000);
    expect(now['P|2026-11-01|P']).toBe(20000);
    expect(now['D|2026-10-31']).toBe(20000);
  });
});

describe('limit running totals under concurrent Cash-Outs', () => {
  it('admit what fits the day and the payee when Cash-Outs race, refuse only what does not, and equal a recount', async () => {
    const api = await Integrator.create();
    const clientId = api.client.clientId;
    await deposit(api, 10_000);
    await admin(`/admin/clients/${clientId}`, 'PATCH', {
      limits: { perTransaction: 1000, daily: 300, perPayeeDaily: 100 },
    });
    const pKey = crypto.randomUUID();
    // 6 to one payee (distinct amounts: not duplicates; 2 fit its 100) and 12 × 25 to others race
    // for the day's 300.
    const created = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        createCashOut(api, { amount: 40 + i / 100, payee: payee(pKey) }),
      ),
      ...Array.from({ length: 12 }, () => createCashOut(api, { amount: 25 })),
    ]);
    const done = await Promise.all(created.map((c) => settled(api, c.transactionId)));
    const cents = (c: Record<string, any>) => Math.round(c.amount * 100);
    const sum = (list: Record<string, any>[]) => list.reduce((total, c) => total + cents(c), 0);
    const completed = done.filter((c) => c.status === 'COMPLETED');
    const day = sum(completed);
    const toP = sum(completed.filter((c) => c.amount >= 40));
    expect(completed.filter((c) => c.amount >= 40).length).toBe(2);
    expect(day).toBeLessThanOrEqual(30000);
    // Totals only grow during the race, so whatever was refused still does not fit at the end.
    for (const c of done.filter((c) => c.status !== 'COMPLETED')) {
      if (c.failure!.code === 'DAILY_LIMIT_EXCEEDED') expect(day + cents(c)).toBeGreaterThan(30000);
      else {
        expect(c.failure!.code).toBe('PAYEE_LIMIT_EXCEEDED');
        expect(toP + cents(c)).toBeGreaterThan(10000);
      }
    }
    await checkLimitTotals(clientId);
  });
});

describe('limit running totals leave with their day', () => {
  it('prunes day and payee-day rows older than yesterday, keeps the month, and a late cancellation gives nothing back to them', async () => {
    vi.useFakeTimers({
      toFake: ['Date'],
      now: new Date('2026-11-04T12:00:00-03:00'),
      shouldAdvanceTime: true,
    });
    let api = await Integrator.create();
    const clientId = api.client.clientId;
    await deposit(api, 10_000);
    await admin(`/admin/clients/${clientId}`, 'PATCH', { limits: { perPayeeDaily: 200 } });
    const pKey = crypto.randomUUID();
    const p = payee(pKey);
    const a = await settled(api, (await createCashOut(api, { amount: 50, payee: p })).transactionId);
    expect(a.status, JSON.stringify(a.failure)).toBe('COMPLETED');
    await admin(`/admin/clients/${clientId}`, 'PATCH', { approvalThreshold: 100 });
    const held = await createCashOut(api, { amount: 100, payee: p });
    expect((await settled(api, held.transactionId, ['PENDING'])).status).toBe('PENDING');
    await admin(`/admin/clients/${clientId}`, 'PATCH', { approvalThreshold: null });

    vi.setSystemTime(new Date('2026-11-05T12:00:00-03:00'));
    api = await api.signedInAgain();
    const b = await settled(api, (await createCashOut(api, { amount: 60, payee: p })).transactionId);
    expect(b.status, JSON.stringify(b.failure)).toBe('COMPLETED');
    expect(await totals(clientId, pKey)).toEqual({
      'D|2026-11-04': 15000,
      'P|2026-11-04|P': 15000,
      'D|2026-11-05': 6000,
      'P|2026-11-05|P': 6000,
      'M|2026-11': 21000,
    });

    // 6 Nov: housekeeping (the object's alarm) drops 4 Nov's rows; yesterday's and the month's stay.
    vi.setSystemTime(new Date('2026-11-06T12:00:00-03:00'));
    api = await api.signedInAgain();
    const stub = ledgerStub(clientId);
    await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(Date.now()));
    await runDurableObjectAlarm(stub);
    expect(await totals(clientId, pKey)).toEqual({
      'D|2026-11-05': 6000,
      'P|2026-11-05|P': 6000,
      'M|2026-11': 21000,
    });
    await checkLimitTotals(clientId);

    // Rejecting the 4 Nov Cash-Out now gives its 100 back to November only: no row comes back for
    // a day no limit asks for.
    const rejected = await admin(`/admin/clients/${clientId}/cash-out/${held.transactionId}/reject`, 'POST');
    expect(rejected.status).toBe(200);
    expect((await settled(api, held.transactionId)).status).toBe('CANCELLED');
    expect(await totals(clientId, pKey)).toEqual({
      'D|2026-11-05': 6000,
      'P|2026-11-05|P': 6000,
      'M|2026-11': 11000,
    });
    expect((await limitTotals(clientId)).filter((r) => r.key.includes('2026-11-04'))).toEqual([]);
    await checkLimitTotals(clientId);
  });
});
