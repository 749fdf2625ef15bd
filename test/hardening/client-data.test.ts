/**
 * Client data never reaches the BR Code unchecked (decisions §5): merchantName / merchantCity are
 * transliterated and cut, a name with nothing left is refused at onboarding, the location host is
 * checked, and CPF/CNPJ check digits are verified for payer and payee.
 */
import { exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/domain/brcode';
import { cashOutBody } from '../support/cash-out';
import { admin, cashInBody, Integrator } from '../support/harness';
import { setProfileName } from '../support/ledger-writes';

type Problem = { code: string; errors: Record<string, string[]> };

function brCodeOf(body: unknown) {
  const parsed = parseBrCode((body as { pixData: { copyAndPaste: string } }).pixData.copyAndPaste);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.fields;
}

async function expectFields(res: Response, fields: string[]) {
  expect(res.status).toBe(400);
  const body = (await res.json()) as Problem;
  expect(body.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(body.errors).sort()).toEqual([...fields].sort());
}

describe('BR Code merchant text (decisions §5)', () => {
  it('refuses at onboarding a name or merchant text with nothing a BR Code can carry', async () => {
    await expectFields(await admin('/admin/clients', 'POST', { name: '東京商事株式会社' }), ['name']);
    await expectFields(await admin('/admin/clients', 'POST', { name: 'Loja', merchantName: '中文' }), [
      'merchantName',
    ]);
    await expectFields(await admin('/admin/clients', 'POST', { name: 'Loja', merchantCity: 'Москва' }), [
      'merchantCity',
    ]);
  });

  it('transliterates and cuts fields 59 and 60; PATCH changes the next BR Codes; GET shows them', async () => {
    const api = await Integrator.create({
      name: '東京商事株式会社',
      merchantName: 'Açaí & Pão de Queijo da Vovó Ltda',
      merchantCity: 'São José dos Campos',
    });
    const first = await api.post('/cash-in', cashInBody());
    expect(first.status).toBe(201);
    const fields = brCodeOf(await first.json());
    expect(fields.merchantName).toBe('ACAI & PAO DE QUEIJO DA V');
    expect(fields.merchantCity).toBe('SAO JOSE DOS CA');

    const patched = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', {
      merchantCity: 'Ribeirão Preto',
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      merchantName: 'Açaí & Pão de Queijo da Vovó Ltda',
      merchantCity: 'Ribeirão Preto',
    });
    const second = await api.post('/cash-in', cashInBody());
    expect(brCodeOf(await second.json()).merchantCity).toBe('RIBEIRAO PRETO');
    await expectFields(
      await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { merchantName: '日本' }),
      ['merchantName'],
    );
  });

  it('defaults to the name and SAO PAULO, and never fails a Cash-In for a legacy non-Latin name', async () => {
    const api = await Integrator.create({ name: 'Padaria Estrela' });
    const res = await api.post('/cash-in', cashInBody());
    expect(brCodeOf(await res.json())).toMatchObject({
      merchantName: 'PADARIA ESTRELA',
      merchantCity: 'SAO PAULO',
    });
    // A client onboarded before names were checked: its stored name transliterates to nothing.
    await setProfileName(api.client.clientId, '北京');
    const { evictDurableObject } = await import('cloudflare:test');
    const { ledgerStub } = await import('../support/ledger');
    await evictDurableObject(ledgerStub(api.client.clientId));
    const legacy = await api.post('/cash-in', cashInBody());
    expect(legacy.status).toBe(201);
    expect(brCodeOf(await legacy.json()).merchantName).toBe('RECEBEDOR');
  });
});

describe('BR Code location host (decisions §5)', () => {
  async function createWithHost(api: Integrator, host: string) {
    const res = await exports.default.fetch(
      new Request(`http://${host}/cash-in`, {
        method: 'POST',
        headers: api.headers(),
        body: JSON.stringify(cashInBody()),
      }),
    );
    expect(res.status).toBe(201);
    return brCodeOf(await res.json()).merchantAccount.url as string;
  }

  it('uses a valid request Host that fits, and the local address for one that does not', async () => {
    const api = await Integrator.create();
    expect(await createWithHost(api, 'pix.loja.example:8443')).toMatch(/^pix\.loja\.example:8443\/pix\/qr\//);
    const long = `${'a'.repeat(60)}.example`;
    const url = await createWithHost(api, long);
    expect(url).toMatch(/^localhost\/pix\/qr\/[A-Za-z0-9_-]{29}$/);
    expect(url.length).toBeLessThanOrEqual(77);
  });
});

describe('odd Host headers (fuzz)', () => {
  it('never fail a Cash-In: any host gives a BR Code whose location fits 77 characters', async () => {
    const api = await Integrator.create();
    const odd = fc.oneof(
      fc.constantFrom(
        `${'a'.repeat(70)}.example`,
        'localhost:99999'.replace('99999', '65535'),
        '[::1]:8787',
        'xn--caf-dma.example',
        'UPPER.Example.COM',
        '127.0.0.1',
        `${'b'.repeat(39)}:1`,
        `${'c'.repeat(40)}`,
      ),
      fc.domain(),
      fc.tuple(fc.domain(), fc.integer({ min: 1, max: 65535 })).map(([d, p]) => `${d}:${p}`),
    );
    await fc.assert(
      fc.asyncProperty(odd, async (host) => {
        const res = await exports.default.fetch(
          new Request(`http://${host}/cash-in`, {
            method: 'POST',
            headers: api.headers(),
            body: JSON.stringify(cashInBody()),
          }),
        );
        expect(res.status, host).toBe(201);
        const url = brCodeOf(await res.json()).merchantAccount.url as string;
        expect(url.length).toBeLessThanOrEqual(77);
      }),
      { numRuns: 40, seed: 19 },
    );
  });
});

describe('CPF and CNPJ check digits (decisions §5)', () => {
  it('refuses payer, payee, PIX key and blocked-list documents whose check digits are wrong', async () => {
    const api = await Integrator.create();
    await expectFields(
      await api.post('/cash-in', cashInBody({ payer: { name: 'Maria', document: '12345678900' } })),
      ['payer.document'],
    );
    await expectFields(
      await api.post('/cash-in', cashInBody({ payer: { name: 'Empresa', document: '12345678000194' } })),
      ['payer.document'],
    );
    await expectFields(
      await api.post('/cash-in', cashInBody({ payer: { name: 'Zeros', document: '00000000000' } })),
      ['payer.document'],
    );
    const payee = (document: string, destination: unknown) =>
      cashOutBody({ payee: { name: 'Ana', document, destination } });
    const evp = { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() };
    await expectFields(await api.signedPost('/cash-out', payee('12345678900', evp)), ['payee.document']);
    await expectFields(
      await api.signedPost(
        '/cash-out',
        payee('12345678909', { type: 'PIX', pixKeyType: 'CPF', pixKey: '12345678900' }),
      ),
      ['payee.destination.pixKey'],
    );
    await expectFields(
      await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', {
        blockedPayerDocuments: ['12345678900'],
      }),
      ['blockedPayerDocuments.0'],
    );
    expect(
      (await api.post('/cash-in', cashInBody({ payer: { name: 'Ok', document: '11222333000181' } }))).status,
    ).toBe(201);
  });
});
