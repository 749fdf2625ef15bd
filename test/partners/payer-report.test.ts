/**
 * Who paid on a real partner (docs/contract.md, Who paid) against the fake PSP of test/setup/fake-psp.ts,
 * which reports payers as Efí does (`gnExtras.pagador`, enabled per key through `/v2/gn/config`,
 * every exchange validated against Efí's SDK schemas): paidBy from the report and the endToEndId,
 * a third-party payment under DECLARED_PAYER returned through the partner's devolution, through a
 * crash between booking and the devolution request, replayed callbacks and a PSP outage, ending
 * with our books equal to the PSP's, centavo by centavo.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ClientLedger } from '../../durable-objects/client-ledger';
import type { CashInBody } from '../../src/api/cash-in/shared';
import { createCashIn, getCashIn, waitFor } from '../support/cash-in';
import { armCrash, crashedAt } from '../support/crash';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { Integrator } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { ledgerStub } from '../support/ledger';
import { cashIns } from '../support/ledger-reads';
import { callback, newE2e, psp } from '../support/partner-psp';
import { expectPspBooks } from '../support/psp-books';
import { newSink, sinkEvents } from '../support/webhooks';

const DECLARED = { name: 'Maria da Silva', document: '12345678909' };
const THIRD_PARTY = { nome: 'Joao Terceiro', cpf: '11144477735' };

const bettorClient = () => Integrator.create({ partners: [FAKE_PSP_ISPB], payerPolicy: 'DECLARED_PAYER' });

async function paidBy(
  api: Integrator,
  amount: number,
  pagador?: unknown,
  extra: Record<string, unknown> = {},
  e2e = newE2e(),
) {
  const cashIn = await createCashIn(api, { amount, payer: DECLARED, ...extra });
  expect(
    await psp('pay', { txid: cashIn.transactionId, endToEndId: e2e, ...(pagador ? { pagador } : {}) }),
  ).not.toBeNull();
  return { cashIn, e2e };
}

const refunded = (api: Integrator, id: string) =>
  waitFor(
    () => getCashIn(api, id),
    (c) => c.status === 'REFUNDED',
  );

/** Settles at the PSP every devolution it holds in flight for this payment, as the network would. */
async function settleDevolutions(e2e: string): Promise<void> {
  const pix = await waitFor(
    () => psp(`pix/${e2e}`),
    (p) => p.devolucoes.length > 0,
  );
  for (const d of pix.devolucoes)
    if (d.status === 'EM_PROCESSAMENTO') await psp('devolution', { endToEndId: e2e, id: d.id, ok: true });
}

describe("the partner's payer report", () => {
  it('is enabled for our key before a charge and gives paidBy; the bank is the endToEndId ISPB', async () => {
    const api = await Integrator.create({ partners: [FAKE_PSP_ISPB] });
    const sink = newSink();
    const { cashIn, e2e } = await paidBy(api, 12.34, undefined, { webhookUrl: sink.url });
    // Efí reports {nome, cpf | cnpj, codigoBanco} once the key's `notificacao.pagador` is on.
    expect((await psp(`pix/${e2e}`)).gnExtras.pagador).toEqual({
      nome: DECLARED.name,
      cpf: DECLARED.document,
      codigoBanco: '60701190',
    });
    expect((await callback(e2e))[0]?.outcomes).toEqual(['paid']);
    const view = await getCashIn(api, cashIn.internalCode);
    const bankData = { ispb: e2e.slice(1, 9), bank: expect.any(String) };
    expect(view.paidBy).toEqual({ ...DECLARED, bankData, allowed: true });
    expect(view.payer).toEqual({ ...DECLARED, bankData: view.paidBy!.bankData });
    expect((await sinkEvents(sink, 2))[1]).toEqual({ type: 'CASHIN_PAID', data: view });
    expect((await psp('invalid')).invalid).toEqual([]);
    await expectPspBooks(api, [e2e]);
  });

  it('a payment from the declared bettor under DECLARED_PAYER is confirmed', async () => {
    const api = await bettorClient();
    const { cashIn, e2e } = await paidBy(api, 50, { nome: 'M. da Silva', cpf: DECLARED.document });
    await callback(e2e);
    const view = await getCashIn(api, cashIn.internalCode);
    expect(view).toMatchObject({ status: 'PAID', paidBy: { document: DECLARED.document, allowed: true } });
    await expectPspBooks(api, [e2e]);
    await assertBooks(api);
  });
});

describe('a third-party payment under DECLARED_PAYER on a real partner', () => {
  it('is held, never confirmed, and returned in full through the devolution: our books = the PSP books', async () => {
    const api = await bettorClient();
    const sink = newSink();
    const { cashIn, e2e } = await paidBy(api, 88.15, THIRD_PARTY, { webhookUrl: sink.url });
    expect((await callback(e2e))[0]?.outcomes).toEqual(['paid']);
    const paid: CashInBody = await getCashIn(api, cashIn.internalCode);
    expect(paid).toMatchObject({
      status: 'PAID',
      payer: DECLARED,
      paidBy: { name: THIRD_PARTY.nome, document: THIRD_PARTY.cpf, allowed: false },
    });
    // A replayed callback moves nothing and sends no second devolution.
    expect((await callback(e2e))[0]?.outcomes[0]).toBe('already-paid');
    await settleDevolutions(e2e);
    const done = await refunded(api, cashIn.internalCode);
    expect(done).toMatchObject({ reason: 'PAYER_NOT_ALLOWED', originalEndToEndId: e2e });
    const events = await sinkEvents(sink, 2);
    expect(events.map((e) => e.type)).toEqual(['CASHIN_REQUESTED', 'CASHIN_REFUNDED']);
    expect(events[1]!.data).toEqual(done);
    const devolved = (await psp(`pix/${e2e}`)).devolucoes;
    expect(devolved.map((d: { valor: string; status: string }) => [d.valor, d.status])).toEqual([
      ['88.15', 'DEVOLVIDO'],
    ]);
    expect((await psp('invalid')).invalid).toEqual([]);
    await expectPspBooks(api, [e2e]);
    await assertBooks(api);
  });

  it('a payment the partner reports without a payer document is not allowed either', async () => {
    const api = await bettorClient();
    const { cashIn, e2e } = await paidBy(api, 9.5, { nome: 'Sem Documento' });
    await callback(e2e);
    expect((await getCashIn(api, cashIn.internalCode)).paidBy).toMatchObject({
      name: 'Sem Documento',
      allowed: false,
    });
    expect((await getCashIn(api, cashIn.internalCode)).paidBy).not.toHaveProperty('document');
    await settleDevolutions(e2e);
    expect((await refunded(api, cashIn.internalCode)).reason).toBe('PAYER_NOT_ALLOWED');
    await expectPspBooks(api, [e2e]);
  });

  it('survives a crash between booking and the devolution request: one devolution, returned in full', async () => {
    const api = await bettorClient();
    await armCrash(api, 'refund.status-read');
    const { cashIn, e2e } = await paidBy(api, 31.4, THIRD_PARTY);
    await callback(e2e);
    await waitFor(
      () => crashedAt(api, 'refund.status-read'),
      (at) => at !== undefined,
    );
    await settleDevolutions(e2e);
    await refunded(api, cashIn.internalCode);
    expect((await psp(`pix/${e2e}`)).devolucoes).toHaveLength(1);
    await expectPspBooks(api, [e2e]);
    await assertBooks(api);
  });

  it('waits out a PSP outage on devolutions with the money held, then returns it once', async () => {
    const api = await bettorClient();
    await psp('outage', { match: '/devolucao/', ms: 3_000 });
    const { cashIn, e2e } = await paidBy(api, 14.2, THIRD_PARTY);
    await callback(e2e);
    expect((await getCashIn(api, cashIn.internalCode)).status).toBe('PAID');
    await settleDevolutions(e2e);
    await refunded(api, cashIn.internalCode);
    expect((await psp(`pix/${e2e}`)).devolucoes).toHaveLength(1);
    await expectPspBooks(api, [e2e]);
    await assertBooks(api);
  });
});

describe('DECLARED_PAYER where no partner reports payers', () => {
  it('answers 422 RULE_VIOLATION and registers nothing anywhere', async () => {
    const api = await bettorClient();
    const plain = JSON.stringify(
      (JSON.parse((env as unknown as { PARTNERS: string }).PARTNERS) as Record<string, unknown>[]).map(
        ({ reportsPayer: _r, ...p }) => p,
      ),
    );
    const result = await runInDurableObject(ledgerStub(api.client.clientId), async (instance) => {
      // The object's own view of the declaration: this partner as plain API Pix.
      const own = (instance as unknown as { env: Record<string, unknown> }).env;
      const declared = own.PARTNERS;
      own.PARTNERS = plain;
      try {
        return await (instance as unknown as ClientLedger).createCashIn({
          amountCents: 1000,
          externalReference: 'bettor-deposit-1',
          expirationInMinutes: 10,
          payer: DECLARED,
          locationPrefix: 'gw.example/pix/qr/k',
          paymentUrlPrefix: 'https://gw.example/open-finance/k',
          locationKey: 'PayerPolicyTest0000000',
          payerPolicy: 'DECLARED_PAYER',
          requestHash: 'h',
        });
      } finally {
        own.PARTNERS = declared;
      }
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatchObject({
      code: 'RULE_VIOLATION',
      detail: expect.stringContaining('DECLARED_PAYER'),
    });
    expect((await cashIns(api.client.clientId)).map((c) => c.transactionId)).toEqual([]);
    // Declared as reporting again, the same request registers the charge at the partner.
    const created = await createCashIn(api, { amount: 10, payer: DECLARED });
    expect(await psp(`cob/${created.transactionId}`)).toMatchObject({ devedor: { cpf: DECLARED.document } });
  });
});

describe('a payer reported only in the callback', () => {
  it('is taken from the authenticated callback when the re-read carries none', async () => {
    const api = await bettorClient();
    const [ownE2e, otherE2e] = [newE2e(), newE2e()];
    for (const endToEndId of [ownE2e, otherE2e]) await psp('payer-in-callback-only', { endToEndId });
    const own = await paidBy(api, 21, { nome: 'M. da Silva', cpf: DECLARED.document }, {}, ownE2e);
    const other = await paidBy(api, 22, THIRD_PARTY, {}, otherE2e);
    await callback(own.e2e);
    await callback(other.e2e);
    expect((await getCashIn(api, own.cashIn.internalCode)).paidBy).toMatchObject({
      document: DECLARED.document,
      allowed: true,
    });
    expect((await getCashIn(api, other.cashIn.internalCode)).paidBy).toMatchObject({
      document: THIRD_PARTY.cpf,
      allowed: false,
    });
    await settleDevolutions(other.e2e);
    await refunded(api, other.cashIn.internalCode);
    await expectPspBooks(api, [own.e2e, other.e2e]);
  });
});
