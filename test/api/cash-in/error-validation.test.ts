import { describe, expect, it } from 'vitest';
import { call, cashInBody, Integrator } from '../../support/harness';

type Problem = { status: number; code: string; errors?: Record<string, string[]>; detail?: string };

async function expectValidation(res: Response, fields: string[]) {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Problem;
  expect(body.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(body.errors ?? {}).sort()).toEqual([...fields].sort());
  for (const messages of Object.values(body.errors ?? {})) expect(messages.length).toBeGreaterThan(0);
}

describe('POST /cash-in validation names each bad field', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['amount as string', { amount: '10.00' }, ['amount']],
    ['amount zero', { amount: 0 }, ['amount']],
    ['amount negative', { amount: -5 }, ['amount']],
    ['amount with 3 decimals', { amount: 10.123 }, ['amount']],
    ['externalReference over 50', { externalReference: 'x'.repeat(51) }, ['externalReference']],
    ['externalReference empty', { externalReference: '' }, ['externalReference']],
    ['expirationInMinutes 0', { expirationInMinutes: 0 }, ['expirationInMinutes']],
    ['expirationInMinutes 43201', { expirationInMinutes: 43201 }, ['expirationInMinutes']],
    ['expirationInMinutes fractional', { expirationInMinutes: 1.5 }, ['expirationInMinutes']],
    ['webhookUrl not a URL', { webhookUrl: 'not a url' }, ['webhookUrl']],
    ['payer missing', { payer: undefined }, ['payer']],
    ['payer.document with 10 digits', { payer: { name: 'A', document: '1234567890' } }, ['payer.document']],
    [
      'payer.document with punctuation',
      { payer: { name: 'A', document: '123.456.789-09' } },
      ['payer.document'],
    ],
    ['payer.name missing', { payer: { document: '12345678909' } }, ['payer.name']],
    ['openFinance without redirectUrl', { openFinance: {} }, ['openFinance.redirectUrl']],
    ['includeQrCodeImage not boolean', { includeQrCodeImage: 'yes' }, ['includeQrCodeImage']],
    [
      'several at once',
      { amount: 'x', externalReference: 7, payer: { name: '', document: 'abc' } },
      ['amount', 'externalReference', 'payer.name', 'payer.document'],
    ],
  ];
  for (const [name, patch, fields] of cases) {
    it(name, async () => {
      const api = await Integrator.create();
      await expectValidation(await api.post('/cash-in', cashInBody(patch)), fields);
    });
  }

  it('accepts the boundaries: amount 0.01, expiration 1 and 43200, CNPJ payer, 50-char reference', async () => {
    const api = await Integrator.create();
    for (const patch of [
      { amount: 0.01, expirationInMinutes: 1 },
      { expirationInMinutes: 43200, payer: { name: 'Empresa', document: '12345678000195' } },
      { externalReference: `r${crypto.randomUUID().replace(/-/g, '')}`.padEnd(50, 'x').slice(0, 50) },
    ]) {
      expect((await api.post('/cash-in', cashInBody(patch))).status).toBe(201);
    }
  });
});

describe('malformed bodies answer 400 VALIDATION_ERROR on body', () => {
  const raw = async (api: Integrator, body: BodyInit, contentType = 'application/json') =>
    call('/cash-in', { method: 'POST', headers: { ...api.headers(), 'content-type': contentType }, body });

  it('invalid JSON, a JSON array, an empty body, a wrong media type, invalid UTF-8, a huge body', async () => {
    const api = await Integrator.create();
    await expectValidation(await raw(api, '{"amount": 1,'), ['body']);
    await expectValidation(await raw(api, '[1,2]'), ['body']);
    await expectValidation(await raw(api, ''), ['body']);
    await expectValidation(await raw(api, JSON.stringify(cashInBody()), 'text/plain'), ['body']);
    await expectValidation(await raw(api, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), ['body']);
    await expectValidation(await raw(api, JSON.stringify({ pad: 'x'.repeat(70_000) })), ['body']);
    await expectValidation(await raw(api, `${'['.repeat(100_000)}${']'.repeat(100_000)}`), ['body']);
  });

  it('a valid body with an extra field nested 30,000 deep (it once overflowed the fingerprint: 500)', async () => {
    const api = await Integrator.create();
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    const body = JSON.stringify(cashInBody()).replace(/\}$/, `,"extra":${deep}}`);
    await expectValidation(await raw(api, body), ['body']);
    // Shallow, the same body is refused for its unknown field by name (request bodies are strict).
    const shallow = JSON.stringify(cashInBody({ extra: JSON.parse(`${'['.repeat(30)}${']'.repeat(30)}`) }));
    await expectValidation(await raw(api, shallow), ['extra']);
  });

  it('an array where the contract has an object, even one whose fields are all optional', async () => {
    const api = await Integrator.create();
    const created = (await (await api.post('/cash-in', cashInBody())).json()) as { internalCode: string };
    const pay = await api.post(`/sandbox/cash-in/${created.internalCode}/pay`, { payer: [] });
    await expectValidation(pay, ['payer']);
    const bank = await api.post(`/sandbox/cash-in/${created.internalCode}/pay`, { payer: { bankData: [] } });
    await expectValidation(bank, ['payer.bankData']);
  });
});
