/**
 * The BCB API Pix adapter against the central bank's own document: every request the adapter sends
 * and every answer of the fake PSP validate against the vendored openapi.yaml, and the adapter
 * meets every expectation of the conformance run (the same run as `npm run partner:conformance`).
 */
import { Validator } from '@cfworker/json-schema';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { BcbApiPixPartner } from '../../src/partners/bcb-api-pix/adapter';
import { centsToDecimal, decimalToCents } from '../../src/partners/bcb-api-pix/money';
import openapi from '../fixtures/bcb-pix-api/openapi.yaml?raw';
import {
  BASE,
  FakeBcbPsp,
  OpenApiValidator,
  runConformance,
  TOKEN_URL,
} from '../support/bcb-pix-conformance';

const doc = yaml.load(openapi) as ConstructorParameters<typeof OpenApiValidator>[0];

describe('BCB API Pix conformance', () => {
  it('drives every operation with 0 invalid exchanges', async () => {
    const result = await runConformance(doc);
    expect(result.failures).toEqual([]);
    expect(result.invalid).toEqual([]);
    expect(result.operations).toBeGreaterThanOrEqual(6);
  });

  it('covers every Pix Automático operation and both of its callbacks', async () => {
    const result = await runConformance(doc);
    expect(result.failures).toEqual([]);
    expect(result.invalid).toEqual([]);
    expect(result.callbacks).toEqual(expect.arrayContaining(['pix', 'rec', 'cobr']));
    const validator = new OpenApiValidator(doc);
    const psp = new FakeBcbPsp();
    const seen = new Set<string>();
    const partner = new BcbApiPixPartner({
      ispb: '09089356',
      pixKey: 'k',
      baseUrl: BASE,
      tokenUrl: TOKEN_URL,
      clientId: 'c',
      clientSecret: 's',
      now: () => psp.now,
      pixAutomatico: { account: '1234567', accountType: 'PAGAMENTO' },
      fetcher: async (request) => {
        const sent = request.clone();
        const url = new URL(request.url);
        if (!request.url.startsWith(TOKEN_URL))
          seen.add(
            `${request.method} ${url.pathname.replace('/api/v2', '').replace(/\/[^/]*[0-9][^/]*/g, '/{id}')}`,
          );
        const response = await psp.handle(request);
        await validator.exchange(sent, response.clone());
        return response;
      },
    });
    await partner.registerWebhook('https://gw.example/partners/09089356/webhook');
    const recurrences = partner.recurrences;
    if (!recurrences) throw new Error('pixAutomatico declared: the adapter offers recurrences');
    const rec = await recurrences.createRecurrence({
      periodicidade: 'MENSAL',
      startDate: '2026-12-20',
      endDate: null,
      fixedAmountCents: 2_990,
      minimumAmountCents: null,
      politicaRetentativa: 'PERMITE_3R_7D',
      contract: 'C-1',
      description: null,
      payer: { name: 'Maria', document: '12345678909' },
      payerBank: null,
      authorizationExpiresAt: psp.now + 86_400_000,
    });
    expect(rec.ok).toBe(true);
    expect(validator.requests).toBeGreaterThan(5);
    expect(validator.invalid).toEqual([]);
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'PUT /webhook/k',
        'PUT /webhookrec',
        'PUT /webhookcobr',
        'POST /locrec',
        'POST /rec',
      ]),
    );
  });

  it('the validator rejects a recurring charge without its receiving account', async () => {
    const validator = new OpenApiValidator(doc);
    const request = new Request('https://psp.test/api/v2/cobr/CPSPrc0000000000000000000000001', {
      method: 'PUT',
      body: JSON.stringify({
        idRec: 'RR0908935620261125abcdefghijk',
        calendario: { dataDeVencimento: '2026-12-20' },
        valor: { original: '29.90' },
        ajusteDiaUtil: true,
      }),
    });
    const problem = {
      type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida',
      title: 'x',
      status: 400,
    };
    const response = new Response(JSON.stringify(problem), {
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
    });
    await validator.exchange(request, response);
    expect(validator.invalid).toHaveLength(1);
  });

  it('the validator rejects a charge whose amount is a number, not the decimal string', async () => {
    const validator = new OpenApiValidator(doc);
    const request = new Request('https://psp.test/api/v2/cob/CPSPtx0000000000000000000000001', {
      method: 'PUT',
      body: JSON.stringify({ calendario: { expiracao: 60 }, valor: { original: 10 }, chave: 'k' }),
    });
    const problem = {
      type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
      title: 'x',
      status: 400,
    };
    const response = new Response(JSON.stringify(problem), {
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
    });
    await validator.exchange(request, response);
    expect(validator.invalid).toHaveLength(1);
  });

  it("reads the document's CPF pattern by intent: written literally it refuses every CPF", async () => {
    const pessoa = (doc as unknown as { components: { schemas: Record<string, any> } }).components.schemas
      .PessoaFisica;
    expect(pessoa.properties.cpf.pattern).toBe('/^\\d{11}$/');
    const literal = new Validator(pessoa, '2019-09', false);
    expect(literal.validate({ cpf: '12345678909', nome: 'Maria' }).valid).toBe(false);
    const validator = new OpenApiValidator(doc);
    expect(validator.quirks.get('/^\\d{11}$/')).toBeGreaterThan(0);
    const cob = (devedor: unknown) =>
      new Request('https://psp.test/api/v2/cob/CPSPtx0000000000000000000000001', {
        method: 'PUT',
        body: JSON.stringify({
          calendario: { expiracao: 60 },
          devedor,
          valor: { original: '1.00' },
          chave: 'k',
        }),
      });
    const refused = () =>
      new Response(
        JSON.stringify({
          type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
          title: 'x',
          status: 400,
        }),
        { status: 400, headers: { 'content-type': 'application/problem+json' } },
      );
    await validator.exchange(cob({ cpf: '12345678909', nome: 'Maria' }), refused());
    await validator.exchange(cob({ cnpj: '12ABC34501DE35', nome: 'Nova Ltda' }), refused());
    expect(validator.invalid).toEqual([]);
    await validator.exchange(cob({ cpf: '123.456.789-09', nome: 'Maria' }), refused());
    await validator.exchange(cob({ cnpj: '12abc34501de35', nome: 'Nova Ltda' }), refused());
    expect(validator.invalid).toHaveLength(2);
  });

  it('a token refused with 401 (an OAuth2 gateway) is replaced once too, and a second refusal is final', async () => {
    const psp = new FakeBcbPsp();
    const partner = new BcbApiPixPartner({
      ispb: '09089356',
      pixKey: 'cobranca@connectpsp.example',
      baseUrl: BASE,
      tokenUrl: TOKEN_URL,
      clientId: 'client',
      clientSecret: 'secret',
      fetcher: (request) => psp.handle(request),
      now: () => psp.now,
    });
    const charge = {
      txid: 'CPSPtx0000000000000000000000001',
      amountCents: 100,
      expiresAt: Date.now() + 60_000,
    };
    expect((await partner.registerCharge(charge)).ok).toBe(true);
    psp.revokeTokens(401);
    expect((await partner.chargeStatus(charge.txid)).ok).toBe(true);
    expect(psp.tokensIssued).toBe(2);
    // Credentials that keep failing: one new token, then the refusal stands (no loop).
    let calls = 0;
    const stubborn = new BcbApiPixPartner({
      ispb: '09089356',
      pixKey: 'k',
      baseUrl: BASE,
      tokenUrl: TOKEN_URL,
      clientId: 'client',
      clientSecret: 'secret',
      fetcher: async (request) => {
        if (request.url.startsWith(TOKEN_URL)) return psp.handle(request);
        calls++;
        return new Response(
          JSON.stringify({
            type: 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado',
            title: 'x',
            status: 403,
          }),
          { status: 403, headers: { 'content-type': 'application/problem+json' } },
        );
      },
    });
    const denied = await stubborn.chargeStatus(charge.txid);
    expect(denied.ok).toBe(false);
    expect(calls).toBe(2);
  });

  it('converts money exactly both ways', () => {
    for (const cents of [0, 1, 10, 99, 100, 12_345, 999_999_999_999])
      expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
    expect(centsToDecimal(5)).toBe('0.05');
    expect(decimalToCents('1.5')).toBeUndefined();
    expect(decimalToCents('1.005')).toBeUndefined();
  });
});
