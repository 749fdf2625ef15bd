/**
 * The money invariants of src/domain/money-invariants.ts over whole snapshots: consistent books
 * pass, and each rule names its own break (the tests' assertBooks, the soak and the ledger's
 * write-path assertions all rely on these answers).
 */
import { describe, expect, it } from 'vitest';
import {
  type BooksSnapshot,
  checkBooks,
  devolutionViolations,
  historyViolation,
  pixOutTotalViolations,
  pixOutViolations,
} from '../../src/domain/money-invariants';

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

  it('a paid Cash-Out without its one PIX_OUT as paid, any other with one; partner totals that differ', () => {
    const paid = { id: 'co1', status: 'COMPLETED', amount: 300, ispb: '00000000', endToEndId: 'E1' };
    const entry = { cashOut: 'co1', ispb: '00000000', amount: 300, endToEndId: 'E1' };
    expect(pixOutViolations([paid], [entry])).toEqual([]);
    expect(pixOutViolations([paid], []).map((v) => v.rule)).toEqual(['pix-out']);
    expect(pixOutViolations([paid], [{ ...entry, amount: 299 }])).toHaveLength(1);
    expect(pixOutViolations([paid], [entry, entry])).toHaveLength(1);
    expect(pixOutViolations([{ ...paid, status: 'CANCELLED' }], [entry])).toHaveLength(1);
    const settled = {
      id: 'co1',
      ispb: '00000000',
      amount: 300,
      outcome: 'SETTLED',
      endToEndId: 'E1',
    } as const;
    expect(pixOutTotalViolations([settled], [entry])).toEqual([]);
    expect(pixOutTotalViolations([settled], [{ ...entry, amount: 200 }]).map((v) => v.rule)).toEqual([
      'pix-out',
    ]);
    expect(pixOutTotalViolations([{ ...settled, outcome: 'FAILED' }], [])).toEqual([]);
  });

  it('a devolution sent twice, of another amount, or shown while the Cash-In is not REFUNDED', () => {
    const refunded = {
      id: 'ci1',
      status: 'REFUNDED',
      amount: 500,
      refundEndToEndId: 'D1',
      refundInFlight: false,
    };
    const sent = { id: 'D1', amount: 500, outcome: 'SETTLED' } as const;
    expect(devolutionViolations([refunded], [sent])).toEqual([]);
    expect(devolutionViolations([refunded], [sent, sent]).map((v) => v.rule)).toEqual(['devolution']);
    expect(devolutionViolations([refunded], [{ ...sent, amount: 400 }])).toHaveLength(1);
    expect(devolutionViolations([{ ...refunded, status: 'PAID' }], [sent])).toHaveLength(1);
    expect(devolutionViolations([{ ...refunded, status: 'PAID', refundInFlight: true }], [sent])).toEqual([]);
    // Where the reader knows how it was returned: our refund sends one that settles, a bank return none.
    expect(devolutionViolations([{ ...refunded, sentByUs: true }], [])).toHaveLength(1);
    expect(devolutionViolations([{ ...refunded, sentByUs: false }], [sent])).toHaveLength(1);
    expect(
      devolutionViolations([{ ...refunded, sentByUs: true }], [{ ...sent, outcome: 'FAILED' }]),
    ).toHaveLength(1);
  });

  it('events that are not the state history of the status', () => {
    const paid = {
      kind: 'CASH_IN',
      id: 'ci1',
      status: 'PAID',
      events: ['CASHIN_REQUESTED', 'CASHIN_PAID'],
    } as const;
    expect(historyViolation(paid)).toBeUndefined();
    expect(historyViolation({ ...paid, events: ['CASHIN_REQUESTED'] })?.rule).toBe('event-history');
    // A payment the payer rules refused is never confirmed.
    expect(historyViolation({ ...paid, paidRefused: true, events: ['CASHIN_REQUESTED'] })).toBeUndefined();
    const waiting = { ...paid, status: 'AWAITING_PAYMENT', events: ['CASHIN_REQUESTED'] };
    expect(historyViolation(waiting, { inFlight: true })).toBeUndefined();
    expect(historyViolation(waiting)?.rule).toBe('event-history');
  });
});
