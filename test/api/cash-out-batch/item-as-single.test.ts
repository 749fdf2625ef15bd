/**
 * A batch item is an ordinary Cash-Out, written exactly as the same body sent alone
 * (docs/contract.md, Batch Cash-Out): for every destination shape, with keys in odd casing and bank
 * accounts in their several forms, a batch item's GET equals the single Cash-Out's GET apart from
 * what identifies each one, and the books match the fake PSP's.
 */
import { describe, expect, it } from 'vitest';
import { cashOutBody, createCashOut, deposit, getCashOut, settled } from '../../support/cash-out';
import { batchSettled, createBatch } from '../../support/cash-out-batch';
import { Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';

const DESTINATIONS: Record<string, unknown>[] = [
  { type: 'PIX', pixKeyType: 'CPF', pixKey: '12345678909' },
  { type: 'PIX', pixKeyType: 'CNPJ', pixKey: '12345678000195' },
  // Receita Federal's alphanumeric example, in lower and in mixed case.
  { type: 'PIX', pixKeyType: 'CNPJ', pixKey: '12abc34501de35' },
  { type: 'PIX', pixKeyType: 'CNPJ', pixKey: '12AbC34501dE35' },
  { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'Ana.Souza@Example.COM' },
  { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'ana.souza@example.com' },
  { type: 'PIX', pixKeyType: 'PHONE', pixKey: '+5511987654321' },
  { type: 'PIX', pixKeyType: 'PHONE', pixKey: '+551133334444' },
  { type: 'PIX', pixKeyType: 'EVP', pixKey: '9F1C2D3E-4B5A-4C6D-8E7F-0A1B2C3D4E5F' },
  { type: 'PIX', pixKeyType: 'EVP', pixKey: '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f' },
  { type: 'BANK_ACCOUNT', bankAccount: { ispb: '60701190', branch: '0001', account: '0012345-6' } },
  {
    type: 'BANK_ACCOUNT',
    bankAccount: { ispb: '60701190', branch: '1', account: '123456', accountType: 'SVGS' },
  },
  {
    type: 'BANK_ACCOUNT',
    bankAccount: { ispb: '00000000', branch: '1234', account: '98765-x', accountType: 'PAYMENT' },
  },
  {
    type: 'BANK_ACCOUNT',
    bankAccount: { ispb: '00000000', branch: '1234', account: '98765X', accountType: 'CACC' },
  },
];

/** What identifies one Cash-Out or depends on when it ran; everything else must be equal. */
function comparable(view: Record<string, unknown>) {
  const {
    transactionId,
    internalCode,
    externalReference,
    amount,
    requestedAt,
    completedAt,
    endToEndId,
    ...rest
  } = view;
  return rest;
}

describe('a batch item is written as the same body sent alone', () => {
  it('every destination shape: the item GET equals the single GET', async () => {
    const api = await Integrator.create();
    await deposit(api, 100);
    // Different amounts, so no item is taken for a repeat of its single twin.
    const bodies = DESTINATIONS.map((destination, i) =>
      cashOutBody({
        amount: 1 + i / 100,
        payee: { name: 'Ana Souza', document: '12345678909', destination },
      }),
    );
    const singles = [];
    for (const body of bodies) singles.push(await createCashOut(api, body));
    const batch = await createBatch(
      api,
      bodies.map((body, i) => ({
        ...body,
        amount: 2 + i / 100,
        externalReference: `item-${i}-${Date.now()}`,
      })),
    );
    await batchSettled(api, batch.batchId);
    for (const [i, single] of singles.entries()) {
      const alone = await settled(api, single.transactionId);
      const item = await getCashOut(api, batch.items[i]!.transactionId);
      expect(comparable(item), JSON.stringify(DESTINATIONS[i])).toEqual(comparable(alone));
    }
    await assertBooks(api);
  });
});
