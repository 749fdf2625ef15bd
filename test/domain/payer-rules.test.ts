/** The payer rule (src/domain/payer-rules.ts): the account that paid, judged by the client's rules. */
import { describe, expect, it } from 'vitest';
import { payerAllowed } from '../../src/domain/payer-rules';

const ANY = { payerPolicy: 'ANY' as const, blockedPayerDocuments: [] };
const DECLARED = { payerPolicy: 'DECLARED_PAYER' as const, blockedPayerDocuments: [] };

describe('payerAllowed', () => {
  it('ANY takes every payer, reported or not, unless blocked', () => {
    expect(payerAllowed(ANY, '12345678909', '11144477735')).toBe(true);
    expect(payerAllowed(ANY, '12345678909', undefined)).toBe(true);
    expect(
      payerAllowed({ ...ANY, blockedPayerDocuments: ['11144477735'] }, '12345678909', '11144477735'),
    ).toBe(false);
  });

  it('blocks the paying document, never the declared one', () => {
    const rules = { ...ANY, blockedPayerDocuments: ['12345678909'] };
    expect(payerAllowed(rules, '12345678909', '11144477735')).toBe(true);
    expect(payerAllowed(rules, '11144477735', '12345678909')).toBe(false);
  });

  it('DECLARED_PAYER takes only the declared document, normalized; an unreported payer is not allowed', () => {
    expect(payerAllowed(DECLARED, '12345678909', '12345678909')).toBe(true);
    expect(payerAllowed(DECLARED, '12ABC34501DE35', '12abc34501de35')).toBe(true);
    expect(payerAllowed(DECLARED, '12345678909', '11144477735')).toBe(false);
    expect(payerAllowed(DECLARED, '12345678909', undefined)).toBe(false);
    // A CPF never equals a CNPJ, even one that begins with its digits.
    expect(payerAllowed(DECLARED, '12345678909', '12345678909000')).toBe(false);
    expect(
      payerAllowed({ ...DECLARED, blockedPayerDocuments: ['12345678909'] }, '12345678909', '12345678909'),
    ).toBe(false);
  });
});
