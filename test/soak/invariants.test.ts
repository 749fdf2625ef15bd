/**
 * The soak's invariant checker (scripts/soak/invariants.ts) on a small hand-made state that is
 * consistent, then on copies with one thing wrong each: every invariant must notice its own kind
 * of damage, and only that one.
 */
import { describe, expect, it } from 'vitest';
import { allowedOutcomes, checkInvariants } from '../../scripts/soak/invariants';
import type { Snapshot, StatementEntry, TxSnapshot } from '../../scripts/soak/snapshot';

const A = '31880826';
const T = 'ACC-T';
const P = 'ACC-P';
const RB = `RB${'AB12'.repeat(8)}`;

function entry(
  id: string,
  type: string,
  direction: 'CREDIT' | 'DEBIT',
  amountCents: number,
  balanceAfterCents: number,
  extra: Partial<StatementEntry> = {},
): StatementEntry {
  return {
    id,
    date: `2026-11-21T10:00:0${id.slice(-1)}.000-03:00`,
    direction,
    type,
    amountCents,
    balanceAfterCents,
    ...extra,
  };
}

function tx(
  partial: Partial<TxSnapshot> & Pick<TxSnapshot, 'kind' | 'scenario' | 'transactionId'>,
): TxSnapshot {
  return {
    clientId: 'c1',
    externalReference: `ref-${partial.transactionId}`,
    amountCents: 0,
    expected: [],
    expectsRefund: false,
    createdAt: 1_000,
    listed: [],
    events: [],
    ...partial,
  };
}

/** Deposit 100.00, Cash-In 50.00 paid, Cash-In 10.00 refunded, Cash-Out 20.00, one cancelled, a sweep of 30.00. */
function consistent(): Snapshot {
  const settlement = { ispb: A, account: T };
  return {
    transactions: [
      tx({
        kind: 'CASH_IN',
        scenario: 'cashin.paid',
        transactionId: 'ci1',
        amountCents: 5_000,
        expected: [{ status: 'PAID' }],
        view: { status: 'PAID', amountCents: 5_000, endToEndId: 'E-ci1', settlement },
        listed: ['PAID'],
        events: ['CASHIN_REQUESTED', 'CASHIN_PAID'],
      }),
      tx({
        kind: 'CASH_IN',
        scenario: 'cashin.refunded',
        transactionId: 'ci2',
        amountCents: 1_000,
        expected: [{ status: 'REFUNDED', reason: 'FRAUD' }],
        expectsRefund: true,
        view: {
          status: 'REFUNDED',
          amountCents: 1_000,
          endToEndId: 'D-ci2',
          originalEndToEndId: 'E-ci2',
          reason: 'FRAUD',
          settlement,
        },
        listed: ['REFUNDED'],
        events: ['CASHIN_REQUESTED', 'CASHIN_PAID', 'CASHIN_REFUNDED'],
      }),
      tx({
        kind: 'CASH_OUT',
        scenario: 'cashout.retry',
        transactionId: 'co1',
        amountCents: 2_000,
        expected: [{ status: 'COMPLETED' }],
        view: { status: 'COMPLETED', amountCents: 2_000, endToEndId: 'E-co1', settlement },
        listed: ['COMPLETED'],
        events: ['CASHOUT_REQUESTED', 'CASHOUT_COMPLETED'],
      }),
      tx({
        kind: 'CASH_OUT',
        scenario: 'cashout.failed',
        transactionId: 'co2',
        amountCents: 700,
        expected: [{ status: 'CANCELLED', failureCode: 'PIX_KEY_NOT_FOUND' }],
        view: { status: 'CANCELLED', amountCents: 700, failureCode: 'PIX_KEY_NOT_FOUND', settlement },
        listed: ['CANCELLED'],
        events: ['CASHOUT_REQUESTED', 'CASHOUT_FAILED'],
      }),
    ],
    accounts: [
      {
        clientId: 'c1',
        number: T,
        ispb: A,
        type: 'TRANSACTIONAL',
        statement: [
          entry('e1', 'TRANSFER_IN', 'CREDIT', 10_000, 10_000),
          entry('e2', 'PIX_IN', 'CREDIT', 5_000, 15_000, { endToEndId: 'E-ci1' }),
          entry('e3', 'PIX_IN', 'CREDIT', 1_000, 16_000, { endToEndId: 'E-ci2' }),
          entry('e4', 'PIX_REFUND_OUT', 'DEBIT', 1_000, 15_000, {
            endToEndId: 'D-ci2',
            originalEndToEndId: 'E-ci2',
          }),
          entry('e5', 'PIX_OUT', 'DEBIT', 2_000, 13_000, { endToEndId: 'E-co1' }),
          entry('e6', 'TRANSFER_OUT', 'DEBIT', 3_000, 10_000, { description: `Sweep ${RB} para ${P}` }),
        ],
        balanceCents: 10_000,
        availableCents: 10_000,
      },
      {
        clientId: 'c1',
        number: P,
        ispb: A,
        type: 'PROPRIETARY',
        statement: [
          entry('e7', 'TRANSFER_IN', 'CREDIT', 3_000, 3_000, { description: `Sweep ${RB} de ${T}` }),
        ],
        balanceCents: 3_000,
        availableCents: 3_000,
      },
    ],
    deposits: [{ clientId: 'c1', accountNumber: T, entryId: 'e1', amountCents: 10_000 }],
    rebalances: [{ clientId: 'c1', rebalanceId: RB, fromNumber: T, toNumber: P, amountCents: 3_000 }],
    retries: [
      {
        clientId: 'c1',
        kind: 'CASH_OUT',
        externalReference: 'ref-co1',
        answers: [
          { status: 202, transactionId: 'co1', replayed: false },
          { status: 202, transactionId: 'co1', replayed: true },
        ],
      },
    ],
    faults: [],
    archive: { calls: 0, archived: 0 },
    partner: [
      {
        ispb: A,
        idempotencyId: 'co1',
        kind: 'PAYMENT',
        amountCents: 2_000,
        outcome: 'SETTLED',
        endToEndId: 'E-co1',
        requests: 1,
      },
      {
        ispb: A,
        idempotencyId: 'co2',
        kind: 'PAYMENT',
        amountCents: 700,
        outcome: 'FAILED',
        failureCode: 'PIX_KEY_NOT_FOUND',
        requests: 1,
      },
      {
        ispb: A,
        idempotencyId: 'D-ci2',
        kind: 'DEVOLUTION',
        amountCents: 1_000,
        outcome: 'SETTLED',
        endToEndId: 'D-ci2',
        requests: 1,
      },
    ],
    strayListed: [],
    requests: 42,
    unexpected: [],
  };
}

/** Names of the invariants that failed after `damage`. */
function failedAfter(damage: (s: Snapshot) => void): string[] {
  const s = consistent();
  damage(s);
  return checkInvariants(s)
    .filter((r) => r.failures.length > 0)
    .map((r) => r.name);
}

const RESPONSES = 'no unexpected responses (5xx, network)';
const ACCOUNTS = 'accounts reconcile (statement = balance)';
const LEDGER = 'every entry is one operation, every operation its entries';
const TRANSACTIONS = 'transactions end as planned, with a valid event history';
const PARTNER = 'no payment reached a partner twice; partner totals = PIX_OUT';
const RETRIES = 'idempotent retries made one transaction';
const PROCESSING = 'no Cash-Out PROCESSING beyond the partner time-out and retries';

describe('soak invariant checker', () => {
  it('passes a consistent state', () => {
    expect(checkInvariants(consistent()).flatMap((r) => r.failures)).toEqual([]);
    expect(failedAfter(() => undefined)).toEqual([]);
  });

  it('fails on a 5xx the run received', () => {
    expect(
      failedAfter((s) => {
        s.unexpected.push({
          op: 'cashin.paid',
          method: 'POST',
          path: '/cash-in',
          status: 500,
          code: 'INTERNAL_ERROR',
        });
      }),
    ).toEqual([RESPONSES]);
  });

  it('fails on a balanceAfter that does not follow, a negative balance, or available ≠ balance', () => {
    expect(failedAfter((s) => (s.accounts[0]!.statement[2]!.balanceAfterCents = 16_001))).toEqual([ACCOUNTS]);
    expect(failedAfter((s) => (s.accounts[0]!.balanceCents = 9_999))).toEqual([ACCOUNTS]);
    expect(failedAfter((s) => (s.accounts[0]!.availableCents = 9_000))).toEqual([ACCOUNTS]);
    // The PIX_OUT first: the account dips below zero before the money arrives, yet chains and adds up.
    const s = consistent();
    const t = s.accounts[0]!;
    const [out] = t.statement.splice(4, 1);
    t.statement.unshift(out!);
    let running = 0;
    for (const [i, e] of t.statement.entries()) {
      running += e.direction === 'CREDIT' ? e.amountCents : -e.amountCents;
      e.balanceAfterCents = running;
      e.date = `2026-11-21T10:00:0${i}.000-03:00`;
    }
    const accounts = checkInvariants(s).find((r) => r.name === ACCOUNTS)!;
    expect(accounts.failures).toEqual([expect.stringContaining('balance negative (-20.00) after entry e5')]);
  });

  it('fails on a Cash-Out PROCESSING past the partner time-out and its retries (issue 19)', () => {
    const t0 = Date.parse('2026-11-21T10:00:00.000-03:00');
    const co = (s: Snapshot) => s.transactions.find((tx) => tx.transactionId === 'co1')!.view!;
    expect(failedAfter((s) => Object.assign(co(s), { requestedAtMs: t0, endedAtMs: t0 + 3_000 }))).toEqual(
      [],
    );
    expect(failedAfter((s) => Object.assign(co(s), { requestedAtMs: t0, endedAtMs: t0 + 40_000 }))).toEqual([
      PROCESSING,
    ]);
    // Still PROCESSING when last read, 40 s in: it also holds its amount, which accounts counts.
    expect(
      failedAfter((s) => {
        Object.assign(co(s), { status: 'PROCESSING', requestedAtMs: t0, readAtMs: t0 + 40_000 });
        s.accounts[0]!.availableCents = (s.accounts[0]!.balanceCents as number) - 2_000;
      }),
    ).toContain(PROCESSING);
  });

  it('counts the holds of Cash-Outs still PENDING as not available (issue 19)', () => {
    const held = failedAfter((s) => {
      const v = s.transactions.find((tx) => tx.transactionId === 'co1')!.view!;
      v.status = 'PENDING';
      s.accounts[0]!.availableCents = (s.accounts[0]!.balanceCents as number) - 2_000;
    });
    expect(held).not.toContain(ACCOUNTS);
  });

  it('fails on money no operation explains, and on an operation without its entry', () => {
    expect(
      failedAfter((s) => {
        const p = s.accounts[1]!;
        p.statement.push(entry('e8', 'TRANSFER_IN', 'CREDIT', 500, 3_500));
        p.balanceCents = 3_500;
        p.availableCents = 3_500;
      }),
    ).toEqual([LEDGER]);
    expect(
      failedAfter((s) => {
        s.deposits.push({ clientId: 'c1', accountNumber: P, entryId: 'e9', amountCents: 100 });
      }),
    ).toEqual([LEDGER]);
  });

  it('fails on a wrong final state, a missing or extra event, or a list that disagrees', () => {
    expect(failedAfter((s) => (s.transactions[0]!.events = ['CASHIN_REQUESTED']))).toEqual([TRANSACTIONS]);
    expect(failedAfter((s) => s.transactions[2]!.events.push('CASHOUT_FAILED'))).toEqual([TRANSACTIONS]);
    expect(failedAfter((s) => (s.transactions[3]!.view!.failureCode = 'FRAUD_SUSPECTED'))).toEqual([
      TRANSACTIONS,
    ]);
    expect(failedAfter((s) => (s.transactions[0]!.listed = ['PAID', 'PAID']))).toEqual([TRANSACTIONS]);
    expect(failedAfter((s) => (s.transactions[1]!.listed = ['PAID']))).toEqual([TRANSACTIONS]);
  });

  it('accepts an injected fault’s failure only for a Cash-Out that met it, at that partner', () => {
    const fault = {
      ispb: A,
      operation: 'CASH_OUT' as const,
      failureCode: 'PAYEE_BANK_UNAVAILABLE',
      from: 100_000,
      to: 200_000,
    };
    const cashOut = consistent().transactions[2]!;
    const during = { ...cashOut, createdAt: 150_000 };
    const faults = (list: (typeof fault)[]) => ({ faults: list, partner: [] });
    expect(allowedOutcomes(during, faults([fault]))).toContainEqual({
      status: 'CANCELLED',
      failureCode: 'PAYEE_BANK_UNAVAILABLE',
      ispb: A,
    });
    expect(allowedOutcomes({ ...cashOut, createdAt: 400_000 }, faults([fault]))).toEqual(cashOut.expected);
    expect(allowedOutcomes({ ...during, scenario: 'cashout.rejected' }, faults([fault]))).toEqual(
      cashOut.expected,
    );
  });

  it('accepts a fault injected by someone else only where the partner’s books show that failure', () => {
    const foreign = (s: Snapshot) => {
      const co = s.transactions[2]!;
      s.transactions[2] = {
        ...co,
        view: {
          status: 'CANCELLED',
          amountCents: 2_000,
          failureCode: 'PAYEE_BANK_UNAVAILABLE',
          settlement: co.view!.settlement!,
        },
        listed: ['CANCELLED'],
        events: ['CASHOUT_REQUESTED', 'CASHOUT_FAILED'],
      };
      // Its payment and its ledger entry never happened; the partner refused it.
      s.partner[0] = { ...s.partner[0]!, outcome: 'FAILED', failureCode: 'PAYEE_BANK_UNAVAILABLE' };
      delete s.partner[0]!.endToEndId;
      const t = s.accounts[0]!;
      t.statement = t.statement.filter((e) => e.id !== 'e5');
      t.statement.at(-1)!.balanceAfterCents = 12_000;
      t.balanceCents = 12_000;
      t.availableCents = 12_000;
    };
    expect(failedAfter(foreign)).toEqual([TRANSACTIONS]);
    const tolerated = (s: Snapshot) => {
      foreign(s);
      s.tolerateForeignFaults = true;
    };
    expect(failedAfter(tolerated)).toEqual([]);
    expect(
      failedAfter((s) => {
        tolerated(s);
        s.partner[0]!.failureCode = 'PIX_KEY_NOT_FOUND';
      }),
    ).toEqual([TRANSACTIONS]);
  });

  it('fails on a payment that reached a partner twice, or a cancelled Cash-Out a partner paid', () => {
    expect(failedAfter((s) => s.partner.push({ ...s.partner[0]!, ispb: '42273459' }))).toEqual([PARTNER]);
    expect(
      failedAfter((s) => {
        s.partner[1]!.outcome = 'SETTLED';
      }),
    ).toEqual([PARTNER]);
    expect(failedAfter((s) => s.partner.splice(2, 1))).toEqual([PARTNER]);
  });

  it('fails when the worker logged an error, where its console was watched', () => {
    const errorLine = '{"level":"error","message":"ledger task failed"}';
    expect(failedAfter((s) => (s.workerLog = { lines: 10, warnings: 1, errors: [] }))).toEqual([]);
    expect(failedAfter((s) => (s.workerLog = { lines: 10, warnings: 0, errors: [errorLine] }))).toEqual([
      'the worker logged no error',
    ]);
  });

  it('fails when a retried request made a second transaction', () => {
    expect(
      failedAfter((s) => {
        s.retries[0]!.answers[1] = { status: 202, transactionId: 'co9', replayed: false };
      }),
    ).toEqual([RETRIES]);
  });
});
