/**
 * The adapter enables Efí's payer report for its key before its first charge: the account's other
 * settings are written back as read (Efí's PUT replaces the whole configuration), a new account
 * without one gets the schema's defaults, and no charge is registered while it cannot be enabled.
 */
import { describe, expect, it } from 'vitest';
import { BcbApiPixPartner } from '../../src/partners/bcb-api-pix/adapter';
import { BASE, FakeBcbPsp, TOKEN_URL } from '../support/fake-bcb-psp';

const KEY = 'cobranca@connectpsp.example';

function adapter(psp: FakeBcbPsp, reportsPayer = true) {
  return new BcbApiPixPartner({
    ispb: '09089356',
    pixKey: KEY,
    baseUrl: BASE,
    tokenUrl: TOKEN_URL,
    clientId: 'client',
    clientSecret: 'secret',
    fetcher: (request) => psp.handle(request),
    now: () => psp.now,
    attempts: 1,
    reportsPayer,
  });
}

const charge = (txid: string, psp: FakeBcbPsp) => ({ txid, amountCents: 1000, expiresAt: psp.now + 600_000 });

describe("Efí's payer report", () => {
  it('is switched on for our key, keeping every other setting as the PSP had it', async () => {
    const psp = new FakeBcbPsp();
    const other = { recebimento: { txidObrigatorio: true, qrCodeEstatico: { recusarTodos: true } } };
    psp.config = { pix: { receberSemChave: false, chaves: { 'outra@chave': other } } };
    expect((await adapter(psp).registerCharge(charge('CPSPtx0000000000000000000000001', psp))).ok).toBe(true);
    expect(psp.config.pix.receberSemChave).toBe(false);
    expect(psp.config.pix.chaves['outra@chave']).toEqual(other);
    expect(psp.config.pix.chaves[KEY].recebimento.webhook.notificacao).toEqual({
      tarifa: false,
      pagador: true,
    });
    const paid = psp.pay('CPSPtx0000000000000000000000001', 'E60701190202611251200abcdefghijk');
    expect(paid.gnExtras.pagador).toMatchObject({ codigoBanco: '60701190' });
  });

  it('is written from the defaults on an account with no configuration yet (404)', async () => {
    const psp = new FakeBcbPsp();
    psp.failNext(404, 'NaoEncontrado');
    expect((await adapter(psp).registerCharge(charge('CPSPtx0000000000000000000000002', psp))).ok).toBe(true);
    expect(psp.config.pix.chaves[KEY].recebimento).toMatchObject({
      txidObrigatorio: false,
      qrCodeEstatico: { recusarTodos: false },
      webhook: { notificacao: { pagador: true } },
    });
  });

  it('blocks the charge while it cannot be enabled; a plain API Pix partner never asks', async () => {
    const psp = new FakeBcbPsp();
    psp.failNext(503, 'ServicoIndisponivel');
    const refused = await adapter(psp).registerCharge(charge('CPSPtx0000000000000000000000003', psp));
    expect(refused).toMatchObject({ ok: false, retryable: true });
    expect(psp.cobs.has('CPSPtx0000000000000000000000003')).toBe(false);
    const plain = new FakeBcbPsp();
    expect(
      (await adapter(plain, false).registerCharge(charge('CPSPtx0000000000000000000000004', plain))).ok,
    ).toBe(true);
    expect(plain.config.pix.chaves).toEqual({});
  });
});
