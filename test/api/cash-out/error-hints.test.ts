/**
 * Errors that say how to fix the request: a PHONE key without +55 is told to add it, a CPF or CNPJ
 * key written with separators is told to drop them (not that its check digits are wrong), and a
 * DigitalSignature that does not match says what is signed and with which key.
 */
import { describe, expect, it } from 'vitest';
import { cashOutBody } from '../../support/cash-out';
import { Integrator } from '../../support/harness';

async function errorsFor(api: Integrator, destination: unknown): Promise<Record<string, string[]>> {
  const res = await api.signedPost(
    '/cash-out',
    cashOutBody({ payee: { name: 'A', document: '12345678909', destination } }),
  );
  expect(res.status).toBe(400);
  return ((await res.json()) as { errors: Record<string, string[]> }).errors;
}

describe('Cash-Out errors that say how to fix the request', () => {
  it('a PHONE key without +55, and CPF/CNPJ keys with separators', async () => {
    const api = await Integrator.create();
    const phone = await errorsFor(api, { type: 'PIX', pixKeyType: 'PHONE', pixKey: '11987654321' });
    expect(phone['payee.destination.pixKey']).toEqual([
      'a PHONE key is +55 and 10 or 11 digits (area code and number), e.g. +5511987654321: add +55 in front',
    ]);
    const cnpj = await errorsFor(api, { type: 'PIX', pixKeyType: 'CNPJ', pixKey: '11.222.333/0001-81' });
    expect(cnpj['payee.destination.pixKey']).toEqual([
      'a CNPJ key is 14 characters: 12 digits or letters, then 2 digits, written without dots, slash, hyphen or spaces',
    ]);
    const cpf = await errorsFor(api, { type: 'PIX', pixKeyType: 'CPF', pixKey: '123.456.789-09' });
    expect(cpf['payee.destination.pixKey']).toEqual([
      'a CPF key is 11 digits, written without dots, slash, hyphen or spaces',
    ]);
    // Wrong check digits in the right format are still called that.
    const digits = await errorsFor(api, { type: 'PIX', pixKeyType: 'CPF', pixKey: '12345678900' });
    expect(digits['payee.destination.pixKey']).toEqual(['a CPF or CNPJ pixKey must have valid check digits']);
  });

  it('DIGITAL_SIGNATURE_INVALID says what is signed and with which key', async () => {
    const api = await Integrator.create();
    const res = await api.post('/cash-out', cashOutBody(), { digitalsignature: '0'.repeat(64) });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { code: string; detail: string };
    expect(body.code).toBe('DIGITAL_SIGNATURE_INVALID');
    expect(body.detail).toMatch(/HMAC-SHA256 of the access token .* keyed by your CryptoToken/);
  });
});
