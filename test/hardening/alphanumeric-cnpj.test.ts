/**
 * Alphanumeric CNPJs (docs/contract.md, Documents): 12 digits or upper-case letters then 2 check
 * digits, each character worth its ASCII code minus 48. Receita Federal's published example
 * `12.ABC.345/01DE-35` (written without separators, `12ABC34501DE35`) is accepted wherever a CNPJ
 * goes: payer, payee, CNPJ Pix key, the blocked-payer list; a wrong check digit is a 400 naming the
 * field; lower-case letters are read upper-case, and a CNPJ key identifies one payee either way.
 */
import { describe, expect, it } from 'vitest';
import { destinationKey } from '../../src/domain/cash-out';
import { isValidCnpj, isValidDocument } from '../../src/domain/documents';
import { createCashIn, getCashIn, payCashIn, waitFor } from '../support/cash-in';
import { cashOutBody, createCashOut, deposit, getCashOut, settled } from '../support/cash-out';
import { withCheckDigits } from '../support/documents';
import { admin, cashInBody, Integrator } from '../support/harness';

const RECEITA_EXAMPLE = '12ABC34501DE35';
const WRONG_CHECK_DIGIT = '12ABC34501DE36';

type Problem = { code: string; errors: Record<string, string[]> };

async function expectFields(res: Response, fields: string[]) {
  expect(res.status).toBe(400);
  const body = (await res.json()) as Problem;
  expect(body.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(body.errors).sort()).toEqual([...fields].sort());
}

describe('alphanumeric CNPJ check digits (Receita Federal rule)', () => {
  it("accepts Receita's example and refuses any other check digit", () => {
    expect(isValidCnpj(RECEITA_EXAMPLE)).toBe(true);
    expect(withCheckDigits('12ABC34501DE')).toBe(RECEITA_EXAMPLE);
    for (let d = 0; d < 100; d++) {
      const candidate = `12ABC34501DE${String(d).padStart(2, '0')}`;
      expect(isValidCnpj(candidate)).toBe(candidate === RECEITA_EXAMPLE);
    }
    // Numeric CNPJs keep their rule (a digit is worth itself); letters never stand as check digits.
    expect(isValidDocument('11222333000181')).toBe(true);
    expect(isValidDocument('11222333000182')).toBe(false);
    expect(isValidCnpj('12ABC34501DEA5')).toBe(false);
    // Lower case is not the canonical form: the API upper-cases it before this check.
    expect(isValidCnpj(RECEITA_EXAMPLE.toLowerCase())).toBe(false);
  });
});

describe('alphanumeric CNPJ through the API', () => {
  it('a payer with an alphanumeric CNPJ creates a Cash-In; lower case is kept upper-cased', async () => {
    const api = await Integrator.create();
    const upper = await api.post(
      '/cash-in',
      cashInBody({ payer: { name: 'Nova Ltda', document: RECEITA_EXAMPLE } }),
    );
    expect(upper.status).toBe(201);
    expect(((await upper.json()) as { payer: { document: string } }).payer.document).toBe(RECEITA_EXAMPLE);
    const lower = await api.post(
      '/cash-in',
      cashInBody({ payer: { name: 'Nova Ltda', document: RECEITA_EXAMPLE.toLowerCase() } }),
    );
    expect(lower.status).toBe(201);
    const created = (await lower.json()) as { transactionId: string; payer: { document: string } };
    expect(created.payer.document).toBe(RECEITA_EXAMPLE);
    const read = await api.get(`/cash-in/${created.transactionId}`);
    expect(((await read.json()) as { payer: { document: string } }).payer.document).toBe(RECEITA_EXAMPLE);
    await expectFields(
      await api.post('/cash-in', cashInBody({ payer: { name: 'Nova Ltda', document: WRONG_CHECK_DIGIT } })),
      ['payer.document'],
    );
    // Separators are not part of the document: the formatted example is refused, naming the field.
    await expectFields(
      await api.post(
        '/cash-in',
        cashInBody({ payer: { name: 'Nova Ltda', document: '12.ABC.345/01DE-35' } }),
      ),
      ['payer.document'],
    );
  });

  it('pays an alphanumeric-CNPJ payee at its CNPJ key; a wrong check digit names the field', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    const key = { type: 'PIX', pixKeyType: 'CNPJ', pixKey: RECEITA_EXAMPLE.toLowerCase() };
    const accepted = await createCashOut(api, {
      amount: 10,
      payee: { name: 'Nova Ltda', document: RECEITA_EXAMPLE.toLowerCase(), destination: key },
    });
    const done = await settled(api, accepted.transactionId);
    expect(done.status).toBe('COMPLETED');
    const read = await getCashOut(api, accepted.transactionId);
    expect(read.payee.document).toBe(RECEITA_EXAMPLE);
    expect(read.payee.destination).toMatchObject({ pixKeyType: 'CNPJ', pixKey: RECEITA_EXAMPLE });

    const payee = (document: string, pixKey: string) =>
      cashOutBody({
        payee: { name: 'Nova Ltda', document, destination: { type: 'PIX', pixKeyType: 'CNPJ', pixKey } },
      });
    await expectFields(await api.signedPost('/cash-out', payee(WRONG_CHECK_DIGIT, RECEITA_EXAMPLE)), [
      'payee.document',
    ]);
    await expectFields(await api.signedPost('/cash-out', payee(RECEITA_EXAMPLE, WRONG_CHECK_DIGIT)), [
      'payee.destination.pixKey',
    ]);
  });

  it('a CNPJ key is one payee however its letters are written, and never loses its letters', () => {
    const key = (pixKey: string) => destinationKey({ type: 'PIX', pixKeyType: 'CNPJ', pixKey });
    expect(key(RECEITA_EXAMPLE.toLowerCase())).toBe(`PIX:CNPJ:${RECEITA_EXAMPLE}`);
    expect(key(RECEITA_EXAMPLE)).toBe(`PIX:CNPJ:${RECEITA_EXAMPLE}`);
    // Two companies whose CNPJs differ only in letters are two payees.
    const other = withCheckDigits('12ABD34501DE');
    expect(key(other)).not.toBe(key(RECEITA_EXAMPLE));
    expect(key('11222333000181')).toBe('PIX:CNPJ:11222333000181');
  });

  it('onboarding data: the blocked-payer list takes an alphanumeric CNPJ, refuses a wrong one', async () => {
    const api = await Integrator.create();
    const patched = await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', {
      blockedPayerDocuments: [RECEITA_EXAMPLE.toLowerCase()],
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { blockedPayerDocuments: string[] }).blockedPayerDocuments).toEqual([
      RECEITA_EXAMPLE,
    ]);
    await expectFields(
      await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', {
        blockedPayerDocuments: [WRONG_CHECK_DIGIT],
      }),
      ['blockedPayerDocuments.0'],
    );
    // The list listed it in lower case; the payer pays as the upper-case CNPJ: the same company.
    const created = await createCashIn(api, { amount: 10 });
    await payCashIn(api, created.internalCode, { payer: { name: 'Nova Ltda', document: RECEITA_EXAMPLE } });
    const done = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    expect(done).toMatchObject({ status: 'REFUNDED', reason: 'PAYER_NOT_ALLOWED' });
  });
});
