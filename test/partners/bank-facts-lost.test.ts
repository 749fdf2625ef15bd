/**
 * Money a real partner moves while we are not looking: a bank return (MED) that overtakes the
 * client's refund and the archive that runs meanwhile, the refund's hold while our overtaken
 * devolution is still in flight, a charge paid in time while the PSP is down at its expiry, and a
 * MED whose callback never came. Against the fake API Pix PSP (test/setup/fake-psp.ts), through
 * real HTTP; each case ends with the books checked (assertBooks) and the PSP's own figures.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { RECHECKS_PER_RUN } from '../../durable-objects/ledger/cash-in/return-rechecks';
import { MED_WINDOW_MS, nextRecheckAt, RECHECK_FIRST_MS } from '../../src/domain/med-recheck';
import { getBalance } from '../support/account';
import { createCashIn, getCashIn, waitFor } from '../support/cash-in';
import type { Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { setCashInExpiry } from '../support/ledger-writes';
import { callback, newE2e, onboard, paidByCallback, psp, statementOf } from '../support/partner-psp';
import {
  archiveNow,
  expectPspBooks,
  pspCents,
  runTasksNow,
  tasksOf,
  transactional,
} from '../support/psp-books';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

async function refund(api: Integrator, internalCode: string): Promise<string> {
  const res = await api.signedPost(`/cash-in/${internalCode}/refund`, { reason: 'MERCHANT_ERROR' });
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { endToEndId: string }).endToEndId;
}

async function medReturn(e2e: string, id: string, valor: string) {
  return psp('return', { endToEndId: e2e, id, valor, natureza: 'MED_FRAUDE' });
}

describe('a MED that overtakes the client refund', () => {
  it('keeps the Cash-In hot while the overtaken devolution is in flight, so its settlement is booked (−100)', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 100);
    const devolutionId = await refund(api, cashIn.internalCode);
    await medReturn(e2e, `MEDarch${Date.now() % 1e6}`, '100.00');
    expect((await callback(e2e))[0]?.outcomes).toEqual(['already-paid', 'refund-checked', 'returned']);
    // Closed (REFUNDED by the bank) but with work pending: the archive leaves it.
    expect(await archiveNow(api)).toBe(0);
    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: true });
    const balance = await waitFor(
      () => transactional(api),
      (a) => a.balance === -100,
    );
    expect(balance).toMatchObject({ balance: -100, available: -100 });
    expect((await statementOf(api)).map((e) => [e.type, e.amount, e.balanceAfter])).toEqual([
      ['PIX_IN', 100, 100],
      ['PIX_REFUND_OUT', 100, 0],
      ['PIX_REFUND_OUT', 100, -100],
    ]);
    expect(await pspCents(e2e)).toBe(-10000);
    // Its work done, it goes to the archive and still reads the same.
    expect(await archiveNow(api)).toBe(1);
    expect(await getCashIn(api, cashIn.internalCode)).toMatchObject({ status: 'REFUNDED', reason: 'FRAUD' });
  });

  it('keeps the refund hold until the overtaken devolution settles: no Cash-Out can spend it twice', async () => {
    const api = await onboard();
    await paidByCallback(api, 1000);
    const { cashIn, e2e } = await paidByCallback(api, 100);
    const devolutionId = await refund(api, cashIn.internalCode);
    expect(await transactional(api)).toMatchObject({ balance: 1100, available: 1000 });
    await medReturn(e2e, `MEDhold${Date.now() % 1e6}`, '100.00');
    await callback(e2e);
    // The bank took 100 and our devolution of 100 may still leave: 900 can be withdrawn, not 1,000.
    expect(await transactional(api)).toMatchObject({ balance: 1000, available: 900 });
    const out = await api.signedPost('/cash-out', {
      amount: 1000,
      externalReference: `twice-${Date.now()}`,
      description: 'Saque',
      payee: {
        name: 'Ana Beneficiária',
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
      },
    });
    if (out.status === 202) {
      const id = ((await out.json()) as { transactionId: string }).transactionId;
      const final = await waitFor(
        async () => (await api.get(`/cash-out/${id}`)).json() as Promise<{ status: string }>,
        (c) => c.status !== 'PROCESSING',
      );
      expect(final.status).toBe('CANCELLED');
    } else expect(out.status).toBe(422);
    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: true });
    const after = await waitFor(
      () => transactional(api),
      (a) => a.balance === 900,
    );
    expect(after).toMatchObject({ balance: 900, available: 900 });
    expect(await pspCents(e2e)).toBe(-10000); // and the 1,000 payment still there: 900 in all
    await assertBooks(api);
  });

  it('releases the refund hold once when the overtaken devolution fails', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 60);
    const devolutionId = await refund(api, cashIn.internalCode);
    await medReturn(e2e, `MEDfail${Date.now() % 1e6}`, '60.00');
    await callback(e2e);
    expect(await transactional(api)).toMatchObject({ balance: 0, available: -60 });
    await psp('devolution', { endToEndId: e2e, id: devolutionId, ok: false });
    await callback(e2e); // the failure reported too: nothing is booked, the hold goes once
    const after = await waitFor(
      () => transactional(api),
      (a) => a.available === 0,
    );
    expect(after).toMatchObject({ balance: 0, available: 0 });
    expect(await tasksOf(api, 'poll-superseded-devolution')).toEqual([]);
    await assertBooks(api);
  });
});

describe('a refund sent while the PSP is down', () => {
  it('fails, its hold released, when the PSP refuses it once reachable (a lost MED came first)', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidByCallback(api, 90);
    await psp('outage', { match: e2e, ms: 60_000 });
    await refund(api, cashIn.internalCode); // accepted: the PSP did not answer, the poll sends it again
    await medReturn(e2e, `MEDfirst${Date.now() % 1e6}`, '30.00'); // its callback lost (PSP down)
    await psp('outage', { match: e2e, ms: 0 });
    // Sent again, the devolution of 90 is refused (30 of 90 went back already): the refund fails.
    const failed = await waitFor(
      () => getCashIn(api, cashIn.internalCode),
      (c) => c.refundFailure !== undefined,
    );
    expect(failed).toMatchObject({ status: 'PAID', refundFailure: { code: 'PAYEE_BANK_REJECTED' } });
    await runTasksNow(api, 'recheck-returns');
    await waitFor(
      () => transactional(api),
      (a) => a.balance === 60,
    );
    await expectPspBooks(api, [e2e]);
    await assertBooks(api);
  });
});

describe('a charge paid in time while the PSP is down at its expiry', () => {
  it('is not expired while the PSP cannot answer, and is booked PAID when it can', async () => {
    const api = await onboard();
    const created = await createCashIn(api, { amount: 33.33, expirationInMinutes: 10 });
    const windowEnd = Date.now() - 6 * 60_000;
    // Paid inside the window (a minute before its end); the callback is lost.
    const e2e = newE2e();
    await psp('pay', {
      txid: created.transactionId,
      endToEndId: e2e,
      horario: new Date(windowEnd - 60_000).toISOString(),
    });
    await setCashInExpiry(api.client.clientId, { internalCode: created.internalCode }, windowEnd);
    await psp('outage', { match: created.transactionId, ms: 60_000 });
    await runTasksNow(api, 'expire-cash-in');
    const tasks = await waitFor(
      () => tasksOf(api, 'expire-cash-in'),
      (t) => t.length === 1 && t[0]!.due_at > Date.now() + 10_000,
    );
    // Asked again later, never expired blind.
    expect(tasks[0]!.due_at).toBeGreaterThan(Date.now() + 10_000);
    expect((await getCashIn(api, created.internalCode)).status).toBe('AWAITING_PAYMENT');

    await psp('outage', { match: created.transactionId, ms: 0 });
    await runTasksNow(api, 'expire-cash-in');
    const view = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status !== 'AWAITING_PAYMENT',
    );
    expect(view).toMatchObject({ status: 'PAID', endToEndId: e2e });
    expect((await callback(e2e))[0]?.outcomes).toEqual(['already-paid']);
    expect((await transactional(api)).balance).toBe(33.33);
    await assertBooks(api);
  });

  it('expires a charge the PSP confirms unpaid', async () => {
    const api = await onboard();
    const created = await createCashIn(api, { amount: 5, expirationInMinutes: 10 });
    await setCashInExpiry(
      api.client.clientId,
      { internalCode: created.internalCode },
      Date.now() - 6 * 60_000,
    );
    await runTasksNow(api, 'expire-cash-in');
    const view = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status !== 'AWAITING_PAYMENT',
    );
    expect(view.status).toBe('EXPIRED');
    expect(await tasksOf(api, 'expire-cash-in')).toEqual([]);
  });
});

describe('a MED whose callback never came', () => {
  it('is found by re-reading the paid Cash-In, hot or archived, and booked once', async () => {
    const api = await onboard();
    const hot = await paidByCallback(api, 70);
    const cold = await paidByCallback(api, 30);
    const scheduled = await tasksOf(api, 'recheck-returns');
    expect(scheduled).toHaveLength(2);
    // The first re-read comes a minute after the payment.
    for (const t of scheduled) expect(t.due_at).toBeLessThanOrEqual(Date.now() + RECHECK_FIRST_MS);
    expect(await archiveNow(api)).toBe(2); // re-reads never keep a paid Cash-In hot
    const rehot = await getCashIn(api, hot.cashIn.internalCode); // archived reads still answer
    expect(rehot.status).toBe('PAID');
    await medReturn(hot.e2e, `MEDlost${Date.now() % 1e6}`, '70.00');
    await medReturn(cold.e2e, `MEDcold${Date.now() % 1e6}`, '10.00');
    await runTasksNow(api, 'recheck-returns');
    await waitFor(
      () => transactional(api),
      (a) => a.balance === 20,
    );
    expect(await getCashIn(api, hot.cashIn.internalCode)).toMatchObject({
      status: 'REFUNDED',
      reason: 'FRAUD',
    });
    // Less than the whole Cash-In went back: it stays PAID until the rest does (docs/contract.md, Disputes).
    expect(await getCashIn(api, cold.cashIn.internalCode)).toMatchObject({ status: 'PAID' });
    // Read again: nothing more is booked; the rest of the partly returned one is returned later.
    await runTasksNow(api, 'recheck-returns');
    await waitFor(
      () => tasksOf(api, 'recheck-returns'),
      (t) => t.length === 2 && t.every((x) => x.due_at > Date.now() + 30_000),
    );
    expect((await transactional(api)).balance).toBe(20);
    await medReturn(cold.e2e, `MEDrest${Date.now() % 1e6}`, '20.00');
    await runTasksNow(api, 'recheck-returns');
    await waitFor(
      () => transactional(api),
      (a) => a.balance === 0,
    );
    expect(await getCashIn(api, cold.cashIn.internalCode)).toMatchObject({
      status: 'REFUNDED',
      reason: 'FRAUD',
    });
    expect((await statementOf(api)).map((e) => [e.type, e.amount])).toEqual([
      ['PIX_IN', 70],
      ['PIX_IN', 30],
      ['PIX_REFUND_OUT', 70],
      ['PIX_REFUND_OUT', 10],
      ['PIX_REFUND_OUT', 20],
    ]);
    await expectPspBooks(api, [hot.e2e, cold.e2e]);
  });

  it('keeps re-reading a paid Cash-In through an outage, at a schedule that thins out with age', async () => {
    const api = await onboard();
    const { e2e } = await paidByCallback(api, 12);
    await psp('outage', { match: e2e, ms: 60_000 });
    await runTasksNow(api, 'recheck-returns');
    const [later] = await waitFor(
      () => tasksOf(api, 'recheck-returns'),
      (t) => t.length === 1 && t[0]!.due_at > Date.now() + 30_000,
    );
    expect(later!.due_at).toBeGreaterThan(Date.now() + 30_000);
    await psp('outage', { match: e2e, ms: 0 });
    expect((await getBalance(api)).totals.transactional).toBe(12);
  });

  it('makes at most RECHECKS_PER_RUN re-reads in one run, the rest moments later', async () => {
    const api = await onboard();
    const total = RECHECKS_PER_RUN + 5;
    for (let i = 0; i < total; i++) await paidByCallback(api, 1 + i);
    await runTasksNow(api, 'recheck-returns');
    // One run: RECHECKS_PER_RUN read and rescheduled after the payment's age, the rest deferred 5 s.
    const after = await waitFor(
      () => tasksOf(api, 'recheck-returns'),
      (t) => t.every((x) => x.due_at > Date.now()),
    );
    const deferred = after.filter((x) => x.due_at < Date.now() + 10_000);
    expect(deferred).toHaveLength(total - RECHECKS_PER_RUN);
    await waitFor(
      () => tasksOf(api, 'recheck-returns'),
      (t) => t.every((x) => x.due_at > Date.now() + 10_000),
    );
    expect((await tasksOf(api, 'recheck-returns')).every((x) => x.due_at > Date.now() + 10_000)).toBe(true);
  });

  it('schedules about 18 re-reads over the 90-day MED window, each twice as far from the payment', () => {
    const times: number[] = [];
    for (let at = nextRecheckAt(0, 0); at !== undefined; at = nextRecheckAt(0, at)) times.push(at);
    expect(times[0]).toBe(RECHECK_FIRST_MS);
    expect(times.at(-1)).toBe(MED_WINDOW_MS);
    expect(times.length).toBeLessThanOrEqual(20);
    for (let i = 1; i < times.length - 1; i++) expect(times[i]).toBe(2 * times[i - 1]!);
  });
});
