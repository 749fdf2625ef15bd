/**
 * Partners as configuration: an undeclared partner stays on the sandbox, a declared bcb-api-pix
 * partner gets its adapter, and a declaration with anything missing refuses naming exactly what.
 */
import { describe, expect, it } from 'vitest';
import { parsePix } from '../../src/partners/bcb-api-pix/adapter';
import {
  declaredPartners,
  offersPixAutomatico,
  PartnerConfigError,
  reportsPayer,
  resolveBcbPartner,
} from '../../src/partners/config';

const bcb = {
  ispb: '09089356',
  name: 'Efí S.A.',
  branch: '0001',
  kind: 'bcb-api-pix',
  baseUrl: 'https://pix.api.efipay.com.br/v2',
  tokenUrl: 'https://pix.api.efipay.com.br/oauth/token',
  pixKey: 'cobranca@connectpsp.example',
  certificate: 'EFI_CERT',
};
const cert = { fetch: async () => new Response('') };
const full = {
  PARTNERS: JSON.stringify([bcb]),
  PARTNER_09089356_CLIENT_ID: 'id',
  PARTNER_09089356_CLIENT_SECRET: 'secret',
  EFI_CERT: cert,
};

describe('partner configuration', () => {
  it('nothing declared: the sandbox catalog serves', () => {
    expect(declaredPartners({})).toEqual([]);
  });

  it('a complete declaration resolves with its secrets and certificate binding', () => {
    const [p] = declaredPartners(full);
    const resolved = resolveBcbPartner(full, p!);
    expect(resolved).toMatchObject({
      ispb: '09089356',
      clientId: 'id',
      clientSecret: 'secret',
      kind: 'bcb-api-pix',
    });
  });

  it.each([
    ['PARTNER_09089356_CLIENT_SECRET', 'needs the secret PARTNER_09089356_CLIENT_SECRET'],
    ['PARTNER_09089356_CLIENT_ID', 'needs the secret PARTNER_09089356_CLIENT_ID'],
    ['EFI_CERT', 'needs the mtls_certificates binding EFI_CERT'],
  ])('fails closed without %s', (missing, message) => {
    const env: Record<string, unknown> = { ...full };
    delete env[missing];
    const [p] = declaredPartners(env);
    expect(() => resolveBcbPartner(env, p!)).toThrow(PartnerConfigError);
    expect(() => resolveBcbPartner(env, p!)).toThrow(message);
  });

  it('refuses a declaration without its base URL or with a bad ISPB', () => {
    const { baseUrl: _, ...noBase } = bcb;
    expect(() => declaredPartners({ PARTNERS: JSON.stringify([noBase]) })).toThrow(
      'PARTNERS[0].baseUrl is required',
    );
    expect(() => declaredPartners({ PARTNERS: JSON.stringify([{ ...bcb, ispb: '123' }]) })).toThrow(
      'PARTNERS[0].ispb must be 8 digits',
    );
    expect(() => declaredPartners({ PARTNERS: '{' })).toThrow('PARTNERS is not valid JSON');
  });

  it('a payout API is declared with its kind, host and payer key, on a bcb-api-pix partner only', () => {
    const payout = {
      kind: 'efi-pix-send',
      baseUrl: 'https://pix.api.efipay.com.br',
      payerKey: 'k@x.example',
    };
    const [p] = declaredPartners({ PARTNERS: JSON.stringify([{ ...bcb, payout }]) });
    expect(p?.payout).toEqual(payout);
    expect(() =>
      declaredPartners({ PARTNERS: JSON.stringify([{ ...bcb, payout: { ...payout, kind: 'pix-send' } }]) }),
    ).toThrow('PARTNERS[0].payout.kind must be "efi-pix-send"');
    expect(() =>
      declaredPartners({ PARTNERS: JSON.stringify([{ ...bcb, payout: { ...payout, payerKey: '' } }]) }),
    ).toThrow('PARTNERS[0].payout.payerKey is required');
    expect(() =>
      declaredPartners({ PARTNERS: JSON.stringify([{ ...bcb, kind: 'sandbox', payout }]) }),
    ).toThrow('PARTNERS[0].payout needs kind "bcb-api-pix"');
  });

  it('only a staging partner whose every URL is on this machine may go without a certificate', () => {
    const local = {
      ...bcb,
      baseUrl: 'http://127.0.0.1:9400/v2',
      tokenUrl: 'http://127.0.0.1:9400/oauth/token',
      certificate: undefined,
    };
    const secrets = { PARTNER_09089356_CLIENT_ID: 'id', PARTNER_09089356_CLIENT_SECRET: 'secret' };
    const staging = { ...secrets, ENVIRONMENT: 'staging', PARTNERS: JSON.stringify([local]) };
    const [p] = declaredPartners(staging);
    expect(typeof resolveBcbPartner(staging, p!).fetcher).toBe('function');
    const production = { ...staging, ENVIRONMENT: 'production' };
    expect(() => resolveBcbPartner(production, p!)).toThrow('points at this machine in production');
    // One remote URL: the certificate is required again.
    const mixed = { ...local, tokenUrl: 'https://pix.api.efipay.com.br/oauth/token' };
    expect(() => declaredPartners({ PARTNERS: JSON.stringify([mixed]) })).toThrow(
      'PARTNERS[0].certificate is required',
    );
  });

  it('reportsPayer: declared per partner (plain API Pix does not); a simulated partner always does', () => {
    expect(reportsPayer(full, '09089356')).toBe(false);
    const efi = { ...full, PARTNERS: JSON.stringify([{ ...bcb, reportsPayer: true }]) };
    expect(reportsPayer(efi, '09089356')).toBe(true);
    expect(reportsPayer({ ENVIRONMENT: 'staging' }, '31880826')).toBe(true);
    expect(reportsPayer({ ENVIRONMENT: 'production' }, '31880826')).toBe(false);
    expect(() => declaredPartners({ PARTNERS: JSON.stringify([{ ...bcb, reportsPayer: 'yes' }]) })).toThrow(
      'PARTNERS[0].reportsPayer must be true or false',
    );
  });

  it('pixAutomatico: declared per partner with the account recurring charges credit; the sandbox always offers it', () => {
    expect(offersPixAutomatico(full, '09089356')).toBe(false);
    const account = { account: '1234567', accountType: 'PAGAMENTO', branch: '0001' };
    const offering = { ...full, PARTNERS: JSON.stringify([{ ...bcb, pixAutomatico: account }]) };
    expect(offersPixAutomatico(offering, '09089356')).toBe(true);
    expect(offersPixAutomatico({ ENVIRONMENT: 'staging' }, '31880826')).toBe(true);
    expect(offersPixAutomatico({ ENVIRONMENT: 'production' }, '31880826')).toBe(false);
    const refused = (pixAutomatico: unknown) => () =>
      declaredPartners({ PARTNERS: JSON.stringify([{ ...bcb, pixAutomatico }]) });
    expect(refused({ ...account, accountType: 'SALARIO' })).toThrow(
      'PARTNERS[0].pixAutomatico.accountType must be one of CORRENTE, POUPANCA, PAGAMENTO',
    );
    expect(refused({ ...account, account: '' })).toThrow('PARTNERS[0].pixAutomatico.account must be');
    expect(refused({ ...account, branch: '00001' })).toThrow(
      'PARTNERS[0].pixAutomatico.branch must be 1 to 4 digits',
    );
    expect(() =>
      declaredPartners({
        ENVIRONMENT: 'staging',
        PARTNERS: JSON.stringify([
          { ispb: '31880826', name: 'Sandbox', kind: 'sandbox', pixAutomatico: account },
        ]),
      }),
    ).toThrow('PARTNERS[0].pixAutomatico needs kind "bcb-api-pix"');
  });

  it("reads Efí's gnExtras.pagador only from a partner that reports payers", () => {
    const pix = {
      endToEndId: 'E60701190202611251200abcdefghijk',
      txid: 'K3b9Qe2LmN8pR4sT6uV1wXyZa0cDfGhJk',
      valor: '10.00',
      horario: '2026-11-25T15:00:00.000Z',
      gnExtras: { pagador: { nome: 'Consultoria Efi', cnpj: '09089356000118', codigoBanco: '00416968' } },
    };
    expect(parsePix(pix)).not.toHaveProperty('payer');
    expect(parsePix(pix, true)?.payer).toEqual({ name: 'Consultoria Efi', document: '09089356000118' });
    expect(
      parsePix({ ...pix, gnExtras: { pagador: { nome: 'X', cpf: '***.456.789-**' } } }, true)?.payer,
    ).toEqual({
      name: 'X',
    });
    expect(parsePix({ ...pix, gnExtras: undefined }, true)?.payer).toEqual({});
  });
});
