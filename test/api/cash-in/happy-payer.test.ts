/**
 * Who paid (docs/contract.md, Who paid) on the sandbox partner, through real HTTP: `paidBy` on GET,
 * lists and events; the declared payer never overwritten; `payerPolicy` and `blockedPayerDocuments`
 * judging the account that paid; a payment not allowed held at once, never confirmed, refunded.
 */
import { describe, expect, it } from 'vitest';
import type { CashInBody } from '../../../src/api/cash-in/shared';
import { accountOf } from '../../support/account';
import { createCashIn, getCashIn, payCashIn, waitFor } from '../../support/cash-in';
import { admin, Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';
import { newSink, sinkEvents } from '../../support/webhooks';

const DECLARED = { name: 'Maria da Silva', document: '12345678909' };
const THIRD_PARTY = {
  name: 'Joao Terceiro',
  document: '11144477735',
  bankData: { ispb: '00000000', branch: '0042', account: '99887-1' },
};

async function available(api: Integrator, number: string): Promise<number> {
  const res = await api.get('/account/balance');
  const body = (await res.json()) as {
    partners: { accounts: { number: string; balance: number; available?: number }[] }[];
  };
  const account = body.partners.flatMap((p) => p.accounts).find((a) => a.number === number)!;
  return account.available ?? account.balance;
}

async function setPolicy(api: Integrator, change: Record<string, unknown>) {
  const res = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', change);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { payerPolicy: string; blockedPayerDocuments: string[] };
}

const refunded = (api: Integrator, id: string) =>
  waitFor(
    () => getCashIn(api, id),
    (c) => c.status === 'REFUNDED',
  );

describe('paidBy', () => {
  it('is the paying account on GET, lists and CASHIN_PAID; payer keeps what the client declared', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const created = await createCashIn(api, { amount: 25, payer: DECLARED, webhookUrl: sink.url });
    expect(await getCashIn(api, created.internalCode)).not.toHaveProperty('paidBy');
    const paid = await payCashIn(api, created.internalCode, { payer: THIRD_PARTY });
    const paidBy = {
      name: THIRD_PARTY.name,
      document: THIRD_PARTY.document,
      bankData: { ...THIRD_PARTY.bankData, bank: expect.any(String) },
      allowed: true,
    };
    expect(paid.paidBy).toEqual(paidBy);
    expect(paid.payer).toEqual({ ...DECLARED, bankData: paid.paidBy!.bankData });
    expect(await getCashIn(api, created.transactionId)).toEqual(paid);
    const list = (await (await api.get('/cash-in?from=2020-01-01&to=2100-12-31&limit=10')).json()) as {
      items: CashInBody[];
    };
    expect(list.items.find((i) => i.transactionId === created.transactionId)).toEqual(paid);
    const [, event] = await sinkEvents(sink, 2);
    expect(event).toEqual({ type: 'CASHIN_PAID', data: paid });
    await assertBooks(api);
  });

  it('defaults to the declared payer in the sandbox when the pay request names none', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { amount: 3, payer: DECLARED });
    const paid = await payCashIn(api, created.internalCode);
    expect(paid.paidBy).toMatchObject({ ...DECLARED, allowed: true });
    expect(paid.paidBy!.bankData).toEqual(paid.payer.bankData);
  });
});

describe('payerPolicy DECLARED_PAYER', () => {
  it('confirms a payment from the declared payer', async () => {
    const api = await Integrator.create({ payerPolicy: 'DECLARED_PAYER' });
    const sink = newSink();
    const created = await createCashIn(api, { amount: 40, payer: DECLARED, webhookUrl: sink.url });
    const paid = await payCashIn(api, created.internalCode, { payer: { document: DECLARED.document } });
    expect(paid).toMatchObject({ status: 'PAID', paidBy: { document: DECLARED.document, allowed: true } });
    expect((await sinkEvents(sink, 2)).map((e) => e.type)).toEqual(['CASHIN_REQUESTED', 'CASHIN_PAID']);
    await assertBooks(api);
  });

  it('holds a third-party payment at once, never confirms it, and refunds it in full: PAYER_NOT_ALLOWED', async () => {
    const api = await Integrator.create();
    expect((await setPolicy(api, { payerPolicy: 'DECLARED_PAYER' })).payerPolicy).toBe('DECLARED_PAYER');
    const sink = newSink();
    const transactional = accountOf(api, 'TRANSACTIONAL').number;
    const created = await createCashIn(api, { amount: 77.7, payer: DECLARED, webhookUrl: sink.url });
    const paid = await payCashIn(api, created.internalCode, { payer: THIRD_PARTY });
    expect(paid.status).toBe('PAID');
    expect(paid.paidBy).toMatchObject({ document: THIRD_PARTY.document, allowed: false });
    expect(paid.payer).toMatchObject(DECLARED);
    // Held in the payment's own transaction: nothing can spend it while it goes back.
    expect(await available(api, transactional)).toBe(0);
    const done = await refunded(api, created.internalCode);
    expect(done).toMatchObject({ status: 'REFUNDED', reason: 'PAYER_NOT_ALLOWED', paidBy: paid.paidBy });
    const events = await sinkEvents(sink, 2);
    expect(events.map((e) => e.type)).toEqual(['CASHIN_REQUESTED', 'CASHIN_REFUNDED']);
    expect(events[1]!.data).toEqual(done);
    const books = await assertBooks(api);
    const moves = books.entries.filter((e) => e.ref === `cash-in:${created.transactionId}`);
    expect(moves.map((e) => [e.type, e.amount])).toEqual([
      ['PIX_IN', 7770],
      ['PIX_REFUND_OUT', 7770],
    ]);
  });
});

describe('blockedPayerDocuments', () => {
  it('judges the account that paid, never the document the client declared', async () => {
    const api = await Integrator.create();
    await setPolicy(api, { blockedPayerDocuments: [DECLARED.document] });
    // Declared as a blocked document, paid by someone else: allowed.
    const a = await createCashIn(api, { amount: 5, payer: DECLARED });
    const paidA = await payCashIn(api, a.internalCode, { payer: THIRD_PARTY });
    expect(paidA.paidBy?.allowed).toBe(true);
    // Declared as another, paid by the blocked account: refunded.
    const b = await createCashIn(api, {
      amount: 6,
      payer: { name: 'Outro', document: THIRD_PARTY.document },
    });
    const paidB = await payCashIn(api, b.internalCode, { payer: DECLARED });
    expect(paidB.paidBy).toMatchObject({ document: DECLARED.document, allowed: false });
    expect(paidB.payer.document).toBe(THIRD_PARTY.document);
    expect((await refunded(api, b.internalCode)).reason).toBe('PAYER_NOT_ALLOWED');
    const done: CashInBody = await getCashIn(api, a.internalCode);
    expect(done.status).toBe('PAID');
    await assertBooks(api);
  });
});

describe('payerPolicy input', () => {
  it('is ANY by default and shown on the client', async () => {
    const api = await Integrator.create();
    const res = await admin(`/admin/clients/${api.client.clientId}`);
    expect(((await res.json()) as { payerPolicy: string }).payerPolicy).toBe('ANY');
  });

  it('answers 400 naming payerPolicy for any other value, at onboarding and on PATCH, changing nothing', async () => {
    for (const value of ['declared_payer', 'NONE', 1, null]) {
      const created = await admin('/admin/clients', 'POST', { name: 'Casa de Apostas', payerPolicy: value });
      expect(created.status).toBe(400);
      const problem = (await created.json()) as { code: string; errors: Record<string, string[]> };
      expect(problem.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(problem.errors)).toEqual(['payerPolicy']);
    }
    const api = await Integrator.create();
    const patched = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { payerPolicy: 'SOMEONE' });
    expect(patched.status).toBe(400);
    expect(Object.keys(((await patched.json()) as { errors: Record<string, string[]> }).errors)).toEqual([
      'payerPolicy',
    ]);
    const res = await admin(`/admin/clients/${api.client.clientId}`);
    expect(((await res.json()) as { payerPolicy: string }).payerPolicy).toBe('ANY');
  });
});
