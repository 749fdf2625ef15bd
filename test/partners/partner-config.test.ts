/**
 * Partners as configuration: an undeclared partner stays on the sandbox, a declared bcb-api-pix
 * partner gets its adapter, and a declaration with anything missing refuses naming exactly what.
 */
import { describe, expect, it } from 'vitest';
import { declaredPartners, PartnerConfigError, resolveBcbPartner } from '../../src/partners/config';

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
});
