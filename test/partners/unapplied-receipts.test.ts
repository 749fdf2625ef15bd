/**
 * Money no Cash-In can take (docs/contract.md, Unapplied receipts), against the fake API Pix PSP
 * through real HTTP: each reason is booked as held for the payer the moment the partner's report is
 * applied, appears in GET /admin/unapplied, and is returned in full through the partner's
 * devolution, ending RETURNED or FAILED; the Cash-In is never touched; a replay books nothing
 * twice; a crash between booking and the devolution request still returns it exactly once.
 */
import { env } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { suspenseHeld as heldAt } from '../../durable-objects/ledger/cash-in/unapplied-store';
import { reconcilePartnerPix } from '../../src/cron/partner-notices';
import { returnPartnerHeld } from '../../src/cron/partner-unapplied';
import { sweepAllClients } from '../../src/cron/sweep';
import { getBalance } from '../support/account';
import { createCashIn, getCashIn, waitFor } from '../support/cash-in';
import { armCrash, waitForCrash } from '../support/crash';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { admin, call } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { inLedger, suspenseEntries } from '../support/ledger-reads';
import { callback, newE2e, onboard, paidAtPsp, psp, statementOf } from '../support/partner-psp';
import { runTasksNow, tasksOf } from '../support/psp-books';
import {
  consoleBooks,
  failedDuplicateReturn,
  failedStrayReturns,
  listUnapplied,
  nextReadAt,
  unappliedOf,
  waitForDevolution,
  waitForReturn,
} from '../support/unapplied';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

/** The cron's two sweeps: the partner's received-Pix list, then every client's overdue work. */
async function sweep(): Promise<void> {
  // A minute and a half later the sweep's window (it ends a minute before now) holds the payment.
  await reconcilePartnerPix(env, Date.now() + 90_000);
  await sweepAllClients(env);
  await returnPartnerHeld(env);
}

/** What the client's suspense account at the partner holds now (centavos). */
async function suspenseHeld(clientId: string): Promise<number> {
  return inLedger(clientId, (l) => heldAt(l.db, FAKE_PSP_ISPB));
}

describe('unapplied receipts', () => {
  it('a second payment of a paid charge is returned in full within two sweeps; the Cash-In is untouched', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 150.25);
    await callback(e2e);
    const paid = await getCashIn(api, cashIn.internalCode);
    expect(paid).toMatchObject({ status: 'PAID', endToEndId: e2e });
    // The payer pays the same charge again; no callback comes: the sweep finds it.
    const second = newE2e();
    await psp('pay', { txid: cashIn.transactionId, endToEndId: second });

    await sweep(); // sweep 1: booked, devolution requested
    const devolutions = await waitForDevolution(psp, second);
    expect(devolutions).toHaveLength(1);
    expect(devolutions[0]).toMatchObject({ valor: '150.25', status: 'EM_PROCESSAMENTO' });
    expect(await suspenseHeld(api.client.clientId)).toBe(15025);
    await psp('devolution', { endToEndId: second, id: devolutions[0]?.id, ok: true });
    await sweep(); // sweep 2: the devolution is read settled
    const receipt = await waitForReturn(second, 'RETURNED');
    expect(receipt).toMatchObject({
      ispb: FAKE_PSP_ISPB,
      endToEndId: second,
      txid: cashIn.transactionId,
      clientId: api.client.clientId,
      amount: 150.25,
      reason: 'DUPLICATE',
      return: { id: devolutions[0]?.id, status: 'RETURNED' },
    });
    expect(receipt?.return.returnedAt).toBeDefined();
    // The settled return is known by the end-to-end id the PSP gave it (its rtrId), not our request id.
    const [settledAtPsp] = (await psp(`pix/${second}`)).devolucoes;
    expect(settledAtPsp.rtrId).not.toBe(devolutions[0]?.id);
    expect(receipt?.return.endToEndId).toBe(settledAtPsp.rtrId);
    expect(await suspenseHeld(api.client.clientId)).toBe(0);
    // The Cash-In and the client's books are as the first payment left them.
    expect(await getCashIn(api, cashIn.internalCode)).toEqual(paid);
    expect((await statementOf(api)).map((e) => [e.type, e.amount, e.endToEndId])).toEqual([
      ['PIX_IN', 150.25, e2e],
    ]);
    await assertBooks(api);
  });

  it('a payment of a cancelled charge is returned in full within two sweeps; the Cash-In stays CANCELLED', async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 33.1 });
    // The partner cannot take the charge down now: it stays payable there for a while.
    await psp('fail-next', {
      match: `/cob/${cashIn.transactionId}`,
      status: 503,
      name: 'ServicoIndisponivel',
      times: 1000, // every attempt while this test runs: the payer pays before it is gone
    });
    expect((await api.post(`/cash-in/${cashIn.internalCode}/cancel`, {})).status).toBe(200);
    const cancelled = await getCashIn(api, cashIn.internalCode);
    const e2e = newE2e();
    expect(await psp('pay', { txid: cashIn.transactionId, endToEndId: e2e })).not.toBeNull();

    await sweep();
    const [devolution] = await waitForDevolution(psp, e2e);
    expect(devolution).toMatchObject({ valor: '33.10' });
    await psp('devolution', { endToEndId: e2e, id: devolution?.id, ok: true });
    await sweep();
    expect(await waitForReturn(e2e, 'RETURNED')).toMatchObject({
      reason: 'NOT_PAYABLE',
      amount: 33.1,
      clientId: api.client.clientId,
    });
    expect(await getCashIn(api, cashIn.internalCode)).toEqual(cancelled);
    expect(await statementOf(api)).toEqual([]);
    await assertBooks(api);
  });

  it('another amount than the charge: held and returned, the charge still payable here', async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 10 });
    const e2e = newE2e();
    await psp('pay', { txid: cashIn.transactionId, endToEndId: e2e, valor: '1.00' });
    expect(await callback(e2e)).toEqual([{ endToEndId: e2e, outcomes: ['amount-mismatch'] }]);
    const [devolution] = await waitForDevolution(psp, e2e);
    expect(devolution).toMatchObject({ valor: '1.00' });
    await psp('devolution', { endToEndId: e2e, id: devolution?.id, ok: true });
    // The partner's callback for the devolution hurries the read.
    await callback(e2e);
    expect(await waitForReturn(e2e, 'RETURNED')).toMatchObject({ reason: 'AMOUNT_MISMATCH', amount: 1 });
    expect((await getCashIn(api, cashIn.internalCode)).status).toBe('AWAITING_PAYMENT');
  });

  it('a txid we never issued: held by the partner when no client is named, by the client when one is', async () => {
    // No client of ours: the partner's suspense account, returned by the cron.
    const stray = newE2e();
    await psp('receive', { endToEndId: stray, valor: '12.00', txid: 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(await callback(stray)).toEqual([{ endToEndId: stray, outcomes: ['unmatched'] }]);
    expect(await unappliedOf(stray)).toMatchObject({
      reason: 'UNKNOWN_CHARGE',
      amount: 12,
      return: { status: 'PROCESSING' },
    });
    expect((await unappliedOf(stray))?.clientId).toBeUndefined();
    await returnPartnerHeld(env);
    const [devolution] = await waitForDevolution(psp, stray);
    await psp('devolution', { endToEndId: stray, id: devolution?.id, ok: true });
    await returnPartnerHeld(env, Date.now() + 5_000);
    expect(await waitForReturn(stray, 'RETURNED')).toMatchObject({ reason: 'UNKNOWN_CHARGE' });

    // A txid that names a client of ours but no Cash-In of it: that client's suspense account.
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 5 });
    const forged = `${cashIn.transactionId.slice(0, 30)}XXXXX`;
    const e2e = newE2e();
    await psp('receive', { endToEndId: e2e, valor: '5.00', txid: forged });
    expect(await callback(e2e)).toEqual([{ endToEndId: e2e, outcomes: ['unmatched'] }]);
    expect(await unappliedOf(e2e)).toMatchObject({ reason: 'UNKNOWN_CHARGE', clientId: api.client.clientId });
    expect(await suspenseHeld(api.client.clientId)).toBe(500);
    expect((await getCashIn(api, cashIn.internalCode)).status).toBe('AWAITING_PAYMENT');
    // Held for the payer, not the client's money: no balance, no statement line, here or elsewhere.
    expect((await getBalance(api)).totals.total).toBe(0);
    expect(await statementOf(api)).toEqual([]);
    const other = await onboard();
    expect((await getBalance(other)).totals.total).toBe(0);
    expect(await suspenseHeld(other.client.clientId)).toBe(0);
  });

  it('ends FAILED with the reason when the network does not make the devolution; the money stays held', async () => {
    const { api, second, failed } = await failedDuplicateReturn(20);
    expect(failed?.return).toMatchObject({ status: 'FAILED', failure: 'PAYEE_BANK_REJECTED' });
    expect(failed?.return.returnedAt).toBeUndefined();
    expect(await suspenseHeld(api.client.clientId)).toBe(2000);
    expect((await listUnapplied('status=FAILED')).map((i) => i.endToEndId)).toContain(second);
    expect((await listUnapplied('status=RETURNED')).map((i) => i.endToEndId)).not.toContain(second);
    // The operator sees it in the console too, with why it failed.
    const page = await consoleBooks('?status=FAILED');
    expect(page).toContain(second);
    expect(page).toContain('PAYEE_BANK_REJECTED');
    // Received at a BRT time, like every console time; the instant itself in datetime (UTC).
    const row = page.slice(page.indexOf(second)).split('</tr>')[0] as string;
    expect(row).toMatch(/<time datetime="[^"]+Z">\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} BRT<\/time>/);
    expect(await consoleBooks('?status=RETURNED')).not.toContain(second);
  });

  it('a FAILED return the network settles later turns RETURNED when read again: repaid once, never asked again', async () => {
    const { api, second, devolution, failed } = await failedDuplicateReturn(61.7);
    // Read again at the partner for the MED window: the operator is not told to return it by other means.
    expect(Date.parse(failed?.return.readUntil ?? '')).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    const page = await consoleBooks('?status=FAILED');
    const row = page.slice(page.indexOf(second)).split('</tr>')[0] as string;
    expect(row).toContain('do not return it by other means');
    expect(row).not.toContain('needs you');
    const [read] = await waitFor(
      () => tasksOf(api, 'return-unapplied'),
      (t) => t.length === 1 && (t[0]?.due_at ?? 0) > Date.now(),
    );
    expect(read?.due_at).toBeGreaterThan(Date.now());
    // A read that finds it still NAO_REALIZADO changes nothing and asks for nothing.
    await runTasksNow(api, 'return-unapplied');
    await waitFor(
      () => tasksOf(api, 'return-unapplied'),
      (t) => t.length === 1 && (t[0]?.due_at ?? 0) > Date.now(),
    );
    expect((await unappliedOf(second))?.return.status).toBe('FAILED');
    expect(await suspenseHeld(api.client.clientId)).toBe(6170);

    // The network settles it after all (the same devolution id); no callback comes: the next read finds it.
    await psp('devolution', { endToEndId: second, id: devolution?.id, ok: true });
    await runTasksNow(api, 'return-unapplied');
    const returned = await waitForReturn(second, 'RETURNED');
    const [atPsp] = (await psp(`pix/${second}`)).devolucoes;
    expect(returned?.return).toMatchObject({
      id: devolution?.id,
      status: 'RETURNED',
      endToEndId: atPsp.rtrId,
    });
    expect(returned?.return.failure).toBeUndefined();
    expect(returned?.return.readUntil).toBeUndefined();
    expect(await suspenseHeld(api.client.clientId)).toBe(0);
    // Reported again (a callback, the sweep): the payer was repaid once, and nothing was asked twice.
    expect(await callback(second)).toEqual([{ endToEndId: second, outcomes: ['already-recorded'] }]);
    await sweep();
    expect((await psp(`pix/${second}`)).devolucoes).toHaveLength(1);
    expect((await suspenseEntries(api.client.clientId)).filter((e) => e.direction === 'DEBIT')).toHaveLength(
      1,
    );
    expect(await suspenseHeld(api.client.clientId)).toBe(0);
    await waitFor(
      () => tasksOf(api, 'return-unapplied'),
      (t) => t.length === 0,
    );
    expect((await statementOf(api)).map((x) => [x.type, x.amount])).toEqual([['PIX_IN', 61.7]]);
    await assertBooks(api);
  });

  it("a FAILED return's settlement reported by the partner's callback is booked at once", async () => {
    const { api, second, devolution } = await failedDuplicateReturn(4.5);
    await psp('devolution', { endToEndId: second, id: devolution?.id, ok: true });
    expect(await callback(second)).toEqual([{ endToEndId: second, outcomes: ['returned'] }]);
    expect((await unappliedOf(second))?.return.status).toBe('RETURNED');
    expect(await suspenseHeld(api.client.clientId)).toBe(0);
    expect(await callback(second)).toEqual([{ endToEndId: second, outcomes: ['already-recorded'] }]);
    expect(await suspenseHeld(api.client.clientId)).toBe(0);
    await assertBooks(api);
  });

  it('a partner-held FAILED return is read again by the cron and turns RETURNED once the network settles it', async () => {
    const {
      strays: [stray = ''],
      devolutions: [devolution],
    } = await failedStrayReturns('19.99', 'YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYY');
    expect((await unappliedOf(stray))?.return).toMatchObject({
      status: 'FAILED',
      failure: 'PAYEE_BANK_REJECTED',
    });
    const nextAt = () => nextReadAt(stray);
    expect(await nextAt()).toBeGreaterThan(Date.now());
    // Read while still refused: nothing moves, the next read is further away.
    const first = (await nextAt()) as number;
    await returnPartnerHeld(env, first);
    expect((await unappliedOf(stray))?.return.status).toBe('FAILED');
    expect(await nextAt()).toBeGreaterThan(first);
    await psp('devolution', { endToEndId: stray, id: devolution?.id, ok: true });
    await returnPartnerHeld(env, (await nextAt()) as number);
    const returned = await unappliedOf(stray);
    expect(returned?.return).toMatchObject({ status: 'RETURNED', id: devolution?.id });
    expect(returned?.return.failure).toBeUndefined();
    expect(await nextAt()).toBeNull();
    expect((await psp(`pix/${stray}`)).devolucoes).toHaveLength(1);
  });

  it('a devolution refused outright is read again but never asked for again', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 2);
    await callback(e2e);
    const second = newE2e();
    await psp('pay', { txid: cashIn.transactionId, endToEndId: second });
    await psp('fail-next', { match: `/pix/${second}/devolucao/`, status: 400, name: 'PixDevolucaoInvalida' });
    await callback(second);
    await waitForReturn(second, 'FAILED');
    for (let i = 0; i < 2; i++) {
      await runTasksNow(api, 'return-unapplied');
      await waitFor(
        () => tasksOf(api, 'return-unapplied'),
        (t) => t.length === 1 && (t[0]?.due_at ?? 0) > Date.now(),
      );
    }
    await sweep();
    expect((await psp(`pix/${second}`)).devolucoes).toEqual([]);
    expect((await unappliedOf(second))?.return.status).toBe('FAILED');
    expect(await suspenseHeld(api.client.clientId)).toBe(200);
  });

  it('ends FAILED when the partner refuses the devolution outright', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 8);
    await callback(e2e);
    const second = newE2e();
    await psp('pay', { txid: cashIn.transactionId, endToEndId: second });
    await psp('fail-next', { match: `/pix/${second}/devolucao/`, status: 400, name: 'PixDevolucaoInvalida' });
    await callback(second);
    const failed = await waitForReturn(second, 'FAILED');
    expect(failed?.return.failure).toBeDefined();
    expect((await psp(`pix/${second}`)).devolucoes).toEqual([]);
  });

  it('a replayed callback books nothing twice and asks for one devolution', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 3);
    await callback(e2e);
    const second = newE2e();
    await psp('pay', { txid: cashIn.transactionId, endToEndId: second });
    expect(await callback(second, second)).toEqual([{ endToEndId: second, outcomes: ['duplicate'] }]);
    expect(await callback(second)).toEqual([{ endToEndId: second, outcomes: ['already-recorded'] }]);
    await sweep();
    const devolutions = await waitForDevolution(psp, second);
    expect(await callback(second)).toEqual([{ endToEndId: second, outcomes: ['already-recorded'] }]);
    await sweep();
    expect((await psp(`pix/${second}`)).devolucoes).toHaveLength(1);
    expect(devolutions).toHaveLength(1);
    expect((await listUnapplied()).filter((i) => i.endToEndId === second)).toHaveLength(1);
    expect(await suspenseHeld(api.client.clientId)).toBe(300);
  });

  it('a crash between booking and the devolution request still returns it exactly once', async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 44.44);
    await callback(e2e);
    await armCrash(api, 'unapplied.booked');
    const second = newE2e();
    await psp('pay', { txid: cashIn.transactionId, endToEndId: second });
    expect(await callback(second)).toEqual([{ endToEndId: second, outcomes: ['duplicate'] }]);
    await waitForCrash(api, 'unapplied.booked');
    // Booked and listed before the crash; nothing asked of the partner yet.
    expect(await unappliedOf(second)).toMatchObject({ return: { status: 'PROCESSING' } });
    // Recovery: the alarm, retried by the runtime, or the cron sweep.
    await sweep();
    const devolutions = await waitForDevolution(psp, second);
    await psp('devolution', { endToEndId: second, id: devolutions[0]?.id, ok: true });
    await sweep();
    await waitForReturn(second, 'RETURNED');
    expect((await psp(`pix/${second}`)).devolucoes).toHaveLength(1);
    expect(await suspenseHeld(api.client.clientId)).toBe(0);
  });

  it('answers 400 naming a bad query field, and pages with a tamper-evident cursor', async () => {
    for (const [query, field] of [
      ['status=DONE', 'status'],
      ['ispb=123', 'ispb'],
      ['from=yesterday', 'from'],
      ['limit=0', 'limit'],
      ['cursor=abc', 'cursor'],
      ['colour=red', 'colour'],
    ] as const) {
      const res = await admin(`/admin/unapplied?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.errors)).toContain(field);
    }
    expect((await call('/admin/unapplied', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });
});
