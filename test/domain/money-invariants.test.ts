/**
 * The money invariants of src/domain/money-invariants.ts over whole snapshots: consistent books
 * pass, and each rule names its own break (the tests' assertBooks, the soak and the ledger's
 * write-path assertions all rely on these answers).
 */
import { describe, expect, it } from 'vitest';
import { type BooksSnapshot, checkBooks } from '../../src/domain/money-invariants';

function books(): BooksSnapshot {
  return {
    accounts: [{ number: '1001', balance: 700 }],
    entries: [
      { id: 'e1', account: '1001', direction: 'CREDIT', amount: 1000, balanceAfter: 1000, bankFact: false },
      { id: 'e2', account: '1001', direction: 'DEBIT', amount: 300, balanceAfter: 700, bankFact: false },
    ],
    holds: [{ id: 'cash-out:x', account: '1001', amount: 200, covers: 200 }],
    suspense: [
      { ispb: '00000000', direction: 'CREDIT', amount: 50 },
      { ispb: '00000000', direction: 'DEBIT', amount: 50 },
    ],
  };
}

const rules = (s: BooksSnapshot) => checkBooks(s).map((v) => v.rule);

describe('money invariants', () => {
  it('consistent books pass', () => {
    expect(checkBooks(books())).toEqual([]);
  });

  it('a balanceAfter that does not follow, a balance that is not the last one, a non-positive amount', () => {
    const chain = books();
    chain.entries[1]!.balanceAfter = 701;
    expect(rules(chain)).toEqual(['balance-chain', 'balance-chain']);
    const balance = books();
    balance.accounts[0]!.balance = 699;
    expect(rules(balance)).toEqual(['balance-chain']);
    const zero = books();
    zero.entries.push({
      id: 'e3',
      account: '1001',
      direction: 'CREDIT',
      amount: 0,
      balanceAfter: 700,
      bankFact: false,
    });
    expect(rules(zero)).toEqual(['balance-chain']);
  });

  it('our debit below zero is an overdraft, unless a bank fact came first on that account', () => {
    const s = books();
    s.entries = [
      { id: 'e1', account: '1001', direction: 'DEBIT', amount: 300, balanceAfter: -300, bankFact: false },
      { id: 'e2', account: '1001', direction: 'CREDIT', amount: 1000, balanceAfter: 700, bankFact: false },
    ];
    expect(checkBooks(s)).toEqual([
      expect.objectContaining({ rule: 'overdraft', entry: { id: 'e1', balanceAfter: -300 } }),
    ]);
    s.entries[0]!.bankFact = true;
    expect(checkBooks(s)).toEqual([]);
  });

  it('a hold above what it holds for, or of nothing', () => {
    const above = books();
    above.holds[0]!.amount = 201;
    expect(rules(above)).toEqual(['hold']);
    const none = books();
    none.holds[0]!.amount = 0;
    expect(rules(none)).toEqual(['hold']);
  });

  it('a suspense account below zero, even for a moment', () => {
    const s = books();
    s.suspense.reverse();
    expect(rules(s)).toEqual(['suspense']);
  });

  it('a Cash-Out the partner paid otherwise than the ledger says, twice, or at all when CANCELLED', () => {
    const s = books();
    s.cashOuts = [{ id: 'co1', status: 'COMPLETED', amount: 300, ispb: '00000000', endToEndId: 'E1' }];
    s.payments = [{ id: 'co1', ispb: '00000000', amount: 300, outcome: 'SETTLED', endToEndId: 'E1' }];
    expect(checkBooks(s)).toEqual([]);
    s.payments[0]!.amount = 301;
    expect(rules(s)).toEqual(['partner-payment']);
    s.payments = [];
    expect(rules(s)).toEqual(['partner-payment']);
    s.payments = [
      { id: 'co1', ispb: '00000000', amount: 300, outcome: 'SETTLED', endToEndId: 'E1' },
      { id: 'co1', ispb: '11111111', amount: 300, outcome: 'FAILED', endToEndId: null },
    ];
    expect(rules(s)).toEqual(['partner-payment']);
    s.cashOuts[0]!.status = 'CANCELLED';
    s.payments = [{ id: 'co1', ispb: '00000000', amount: 300, outcome: 'SETTLED', endToEndId: 'E1' }];
    expect(rules(s)).toEqual(['partner-payment']);
  });
});
