/**
 * Reconciliation (issue item 5), property-based: random sequences of deposits, Cash-Ins paid,
 * returned and refunded, top-ups, sweeps and Cash-Outs (completed, returned) run through the API
 * against a model of every account; afterwards every account reconciles exactly —
 * credits − debits = balance = last balanceAfter, the same in the statement, in GET
 * /account/balance and in storage — no balance was ever negative, and the Cash-In summary's
 * settlement matches the PIX entries of the ledger.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CashInSummaryBody } from '../../../src/api/cash-in/summarize-cash-ins';
import { BANK_RETURN_LABEL } from '../../../src/domain/statement';
import {
  balanceOf,
  cents,
  FAR_TO,
  fullStatement,
  getBalance,
  type StatementItem,
  walkStatement,
} from '../../support/account';
import { createCashIn, getCashIn, payCashIn, waitFor } from '../../support/cash-in';
import { cashOutBody, settled } from '../../support/cash-out';
import { Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';

type Command =
  | { kind: 'deposit'; account: number; amount: number }
  | { kind: 'cashIn'; amount: number }
  | { kind: 'return'; pick: number }
  | { kind: 'refund'; pick: number }
  | { kind: 'topUp' | 'sweep'; partner: number | 'richest' | null; amount: Outflow }
  | { kind: 'cashOut'; amount: Outflow }
  | { kind: 'cashOutReturn'; pick: number };

/** Centavos coming in: up to R$ 1,000.00. */
const inflow = fc.integer({ min: 1, max: 100_000 });
/**
 * Money going out: mostly a share (1–110 %) of what the source has available, so most moves
 * succeed and some overdraw by a little; sometimes a fixed amount in centavos.
 */
type Outflow = { share: number } | { cents: number };
const outflow: fc.Arbitrary<Outflow> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ share: fc.integer({ min: 1, max: 110 }) }) },
  { weight: 1, arbitrary: fc.record({ cents: fc.integer({ min: 1, max: 200_000 }) }) },
);
const resolve = (out: Outflow, available: number) =>
  'cents' in out ? out.cents : Math.max(1, Math.floor((available * out.share) / 100));
const pick = fc.nat({ max: 20 });

const syncCommand: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      account: fc.nat({ max: 5 }),
      amount: inflow,
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cashIn' as const), amount: inflow }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('return' as const), pick }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('topUp' as const, 'sweep' as const),
      // null: ispb omitted (the first partner); 'richest': the partner whose source has the most.
      partner: fc.oneof(fc.constant(null), fc.nat({ max: 2 }), fc.constant('richest' as const)),
      amount: outflow,
    }),
  },
);

const asyncCommand: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: syncCommand },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cashOut' as const), amount: outflow }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cashOutReturn' as const), pick }) },
);

interface CashInModel {
  code: string;
  amount: number;
  state: 'PAID' | 'REFUNDING' | 'REFUNDED';
}

/** What the books must say: balances and holds per account, and every flow in and out. */
class Model {
  readonly balance = new Map<string, number>();
  readonly held = new Map<string, number>();
  readonly cashIns: CashInModel[] = [];
  readonly cashOuts: { id: string; amount: number; account: string; state: 'COMPLETED' | 'REFUNDED' }[] = [];
  readonly flows = { deposits: 0, pixIn: 0, pixRefundOut: 0, pixOut: 0, pixRefundIn: 0 };
  readonly numbers: string[];
  readonly partners: string[];

  constructor(readonly api: Integrator) {
    this.partners = [...new Set(api.client.accounts.map((a) => a.bank.ispb))];
    this.numbers = this.partners.flatMap((ispb) =>
      ['TRANSACTIONAL', 'PROPRIETARY'].map(
        (type) => api.client.accounts.find((a) => a.bank.ispb === ispb && a.type === type)!.number,
      ),
    );
    for (const n of this.numbers) this.balance.set(n, 0);
  }

  account(partner: number, type: 'TRANSACTIONAL' | 'PROPRIETARY') {
    return this.numbers[partner * 2 + (type === 'TRANSACTIONAL' ? 0 : 1)]!;
  }

  /** A bank return was booked: our settled debits may overdraw from then on (see reconcile). */
  bankReturned = false;

  available(number: string) {
    return this.balance.get(number)! - (this.held.get(number) ?? 0);
  }

  /**
   * Our debits never overdraw; a devolution the bank made on its own may (a fact), and money coming
   * in is credited whatever the balance, so a credit may leave a negative balance still negative.
   */
  move(number: string, delta: number, bankFact = false) {
    const after = this.balance.get(number)! + delta;
    if (!bankFact && delta < 0) expect(after).toBeGreaterThanOrEqual(0);
    this.balance.set(number, after);
  }
}

async function run(model: Model, command: Command): Promise<void> {
  const { api } = model;
  const t0 = model.account(0, 'TRANSACTIONAL');
  switch (command.kind) {
    case 'deposit': {
      const number = model.numbers[command.account]!;
      const res = await api.post(`/sandbox/accounts/${number}/deposit`, { amount: command.amount / 100 });
      expect(res.status).toBe(201);
      model.move(number, command.amount);
      model.flows.deposits += command.amount;
      return;
    }
    case 'cashIn': {
      const created = await createCashIn(api, { amount: command.amount / 100 });
      await payCashIn(api, created.internalCode);
      model.cashIns.push({ code: created.internalCode, amount: command.amount, state: 'PAID' });
      // Charges land on the TRANSACTIONAL account of the client's first partner.
      model.move(t0, command.amount);
      model.flows.pixIn += command.amount;
      return;
    }
    case 'return':
    case 'refund': {
      const paid = model.cashIns.filter((c) => c.state === 'PAID');
      if (paid.length === 0) return;
      const target = paid[command.pick % paid.length]!;
      const covered = model.available(t0) >= target.amount;
      const res =
        command.kind === 'return'
          ? await api.post(`/sandbox/cash-in/${target.code}/return`, { reason: 'CUSTOMER_REQUEST' })
          : await api.signedPost(`/cash-in/${target.code}/refund`, { reason: 'MERCHANT_ERROR' });
      // A bank's return is recorded whatever the balance; our own refund needs the money.
      if (!covered && command.kind === 'refund') {
        expect(res.status).toBe(422);
        return;
      }
      expect(res.status).toBe(command.kind === 'return' ? 200 : 202);
      model.flows.pixRefundOut += target.amount;
      if (command.kind === 'return') {
        target.state = 'REFUNDED';
        model.bankReturned = true;
        model.move(t0, -target.amount, true);
      } else {
        // Held now, debited when the devolution settles (checked at the end).
        target.state = 'REFUNDING';
        model.held.set(t0, (model.held.get(t0) ?? 0) + target.amount);
      }
      return;
    }
    case 'topUp':
    case 'sweep': {
      const [fromType, toType] =
        command.kind === 'topUp'
          ? (['PROPRIETARY', 'TRANSACTIONAL'] as const)
          : (['TRANSACTIONAL', 'PROPRIETARY'] as const);
      const richest = model.partners
        .map((_, i) => i)
        .reduce((a, b) =>
          model.available(model.account(b, fromType)) > model.available(model.account(a, fromType)) ? b : a,
        );
      const partner = command.partner === 'richest' ? richest : (command.partner ?? 0);
      const from = model.account(partner, fromType);
      const to = model.account(partner, toType);
      const amount = resolve(command.amount, model.available(from));
      const res = await api.signedPost(
        `/account/rebalance/${command.kind === 'topUp' ? 'top-up' : 'sweep'}`,
        {
          amount: amount / 100,
          ...(command.partner !== null && { ispb: model.partners[partner] }),
        },
      );
      const body = (await res.json()) as Record<string, any>;
      if (model.available(from) < amount) {
        expect(res.status).toBe(422);
        expect(body.code).toBe(`INSUFFICIENT_${fromType}_FUNDS`);
        return;
      }
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(body).toMatchObject({ from: { number: from }, to: { number: to }, status: 'COMPLETED' });
      model.move(from, -amount);
      model.move(to, amount);
      return;
    }
    case 'cashOut': {
      const transactional = model.partners.map((_, i) => model.account(i, 'TRANSACTIONAL'));
      const amount = resolve(command.amount, Math.max(...transactional.map((n) => model.available(n))));
      const res = await api.signedPost('/cash-out', cashOutBody({ amount: amount / 100 }));
      expect(res.status).toBe(202);
      const { transactionId } = (await res.json()) as { transactionId: string };
      const final = await settled(api, transactionId);
      const able = transactional.filter((n) => model.available(n) >= amount);
      if (able.length === 0) {
        expect(final).toMatchObject({ status: 'CANCELLED', failure: { code: 'INSUFFICIENT_FUNDS' } });
        return;
      }
      expect(final.status).toBe('COMPLETED');
      const account = final.settlement!.account as string;
      expect(able).toContain(account);
      model.move(account, -amount);
      model.flows.pixOut += amount;
      model.cashOuts.push({ id: transactionId, amount, account, state: 'COMPLETED' });
      return;
    }
    case 'cashOutReturn': {
      const completed = model.cashOuts.filter((c) => c.state === 'COMPLETED');
      if (completed.length === 0) return;
      const target = completed[command.pick % completed.length]!;
      const res = await api.post(`/sandbox/cash-out/${target.id}/return`, { reason: 'PAYEE_REQUESTED' });
      expect(res.status).toBe(200);
      target.state = 'REFUNDED';
      model.move(target.account, target.amount);
      model.flows.pixRefundIn += target.amount;
      return;
    }
  }
}

const sum = (items: StatementItem[], pred: (i: StatementItem) => boolean = () => true) =>
  items.filter(pred).reduce((s, i) => s + cents(i.amount), 0);

/** Every account reconciles with the model, the statement, the balance endpoint and storage. */
async function reconcile(model: Model): Promise<void> {
  const { api } = model;
  // Devolutions in flight settle by themselves (about a second in the sandbox).
  for (const c of model.cashIns.filter((x) => x.state === 'REFUNDING')) {
    const done = await waitFor(
      () => getCashIn(api, c.code),
      (x) => x.status === 'REFUNDED',
    );
    expect(done.status).toBe('REFUNDED');
    c.state = 'REFUNDED';
    const t0 = model.account(0, 'TRANSACTIONAL');
    model.held.set(t0, model.held.get(t0)! - c.amount);
    // Settled at the partner: recorded even when a bank return since took the money it held.
    model.move(t0, -c.amount, model.bankReturned);
  }

  const balances = await getBalance(api);
  const statements = new Map<string, StatementItem[]>();
  for (const number of model.numbers) {
    const items = await fullStatement(api, number);
    statements.set(number, items);
    let running = 0;
    let bankReturned = false;
    for (const item of items) {
      expect(item.amount).toBeGreaterThan(0);
      running += item.direction === 'CREDIT' ? cents(item.amount) : -cents(item.amount);
      // Each balanceAfter follows from the one before; only a bank's own return may overdraw, and
      // after it the settlement of a devolution whose held money it took.
      expect(cents(item.balanceAfter!)).toBe(running);
      if (item.typeRaw === BANK_RETURN_LABEL) bankReturned = true;
      else if (item.direction === 'DEBIT' && !bankReturned)
        expect(item.balanceAfter!).toBeGreaterThanOrEqual(0);
    }
    const credits = sum(items, (i) => i.direction === 'CREDIT');
    const debits = sum(items, (i) => i.direction === 'DEBIT');
    const expected = model.balance.get(number)!;
    const reported = balanceOf(balances, number);
    expect(credits - debits).toBe(expected);
    expect(cents(reported.balance)).toBe(expected);
    expect(cents(reported.available!)).toBe(expected);
    expect(items.length === 0 ? 0 : cents(items.at(-1)!.balanceAfter!)).toBe(expected);
  }

  // Storage agrees (every balanceAfter chained, none below zero, the balance the last one, no hold
  // left), and so do each transaction's events and the partner's books (test/support/invariants.ts).
  const books = await assertBooks(api);
  for (const number of model.numbers) {
    expect(books.balances.get(number)).toBe(model.balance.get(number));
    expect(books.entries.filter((e) => e.account_number === number)).toHaveLength(
      statements.get(number)!.length,
    );
  }

  // Totals, and conservation of money across every flow.
  const f = model.flows;
  const total = f.deposits + f.pixIn - f.pixRefundOut - f.pixOut + f.pixRefundIn;
  const transactional = model.partners.reduce(
    (s, _, i) => s + model.balance.get(model.account(i, 'TRANSACTIONAL'))!,
    0,
  );
  expect(balances.totals).toEqual({
    transactional: transactional / 100,
    proprietary: (total - transactional) / 100,
    total: total / 100,
  });
  const all = [...statements.values()].flat();
  expect(sum(all, (i) => i.type === 'PIX_IN')).toBe(f.pixIn);
  expect(sum(all, (i) => i.type === 'PIX_REFUND_OUT')).toBe(f.pixRefundOut);
  expect(sum(all, (i) => i.type === 'PIX_OUT')).toBe(f.pixOut);
  expect(sum(all, (i) => i.type === 'PIX_REFUND_IN')).toBe(f.pixRefundIn);
  expect(sum(all, (i) => i.type === 'TRANSFER_IN') - sum(all, (i) => i.type === 'TRANSFER_OUT')).toBe(
    f.deposits,
  );

  // The Cash-In summary's settlement is the PIX money still in the ledger (spec §4.8).
  const summary = (await (
    await api.get(`/cash-in/summary?from=2020-01-01&to=${FAR_TO}`)
  ).json()) as CashInSummaryBody;
  const t0Items = statements.get(model.account(0, 'TRANSACTIONAL'))!;
  const netPix = sum(t0Items, (i) => i.type === 'PIX_IN') - sum(t0Items, (i) => i.type === 'PIX_REFUND_OUT');
  const paid = model.cashIns.filter((c) => c.state === 'PAID');
  const refunded = model.cashIns.filter((c) => c.state === 'REFUNDED');
  expect(netPix).toBe(paid.reduce((s, c) => s + c.amount, 0));
  expect(summary.settlement).toEqual(
    paid.length === 0
      ? []
      : [{ ispb: model.partners[0], bank: expect.any(String), count: paid.length, amount: netPix / 100 }],
  );
  expect(summary.totals.paid ?? { count: 0, amount: 0 }).toEqual({
    count: paid.length,
    amount: netPix / 100,
  });
  expect(cents(summary.totals.refunded?.amount ?? 0)).toBe(sum(t0Items, (i) => i.type === 'PIX_REFUND_OUT'));
  expect(summary.totals.refunded?.count ?? 0).toBe(refunded.length);

  // A balance at an instant is the last balanceAfter at or before it.
  const busiest = model.numbers.reduce((a, b) =>
    statements.get(a)!.length >= statements.get(b)!.length ? a : b,
  );
  const items = statements.get(busiest)!;
  if (items.length > 0) {
    const mid = items[Math.floor(items.length / 2)]!;
    const lastAtMid = items.filter((i) => i.date <= mid.date).at(-1)!;
    const at = await getBalance(api, `at=${encodeURIComponent(mid.date)}`);
    expect(balanceOf(at, busiest).balance).toBe(lastAtMid.balanceAfter);
    // And the statement reads the same page by page.
    const paged = (await walkStatement(api, busiest, { limit: 3 })).flatMap((p) => p.items);
    expect(paged).toEqual(items);
  }
}

/** Some money first (deposits on random accounts, maybe a paid Cash-In), then the sequence. */
const funding: fc.Arbitrary<Command[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('deposit' as const), account: fc.nat({ max: 5 }), amount: inflow }),
    fc.record({ kind: fc.constant('cashIn' as const), amount: inflow }),
  ),
  { maxLength: 4 },
);

async function property(commands: fc.Arbitrary<Command[]>, numRuns: number) {
  await fc.assert(
    fc.asyncProperty(fc.tuple(funding, commands), async ([prefix, rest]) => {
      const sequence = [...prefix, ...rest];
      const model = new Model(await Integrator.create());
      for (const command of sequence) await run(model, command);
      await reconcile(model);
    }),
    { numRuns, endOnFailure: true },
  );
}

describe('reconciliation (issue item 5): every account adds up after any sequence of operations', () => {
  it('deposits, Cash-Ins paid and returned, top-ups and sweeps', { timeout: 180_000 }, async () => {
    await property(fc.array(syncCommand, { minLength: 1, maxLength: 12 }), 25);
  });

  it('…with refunds settling asynchronously and Cash-Outs completed and returned', {
    timeout: 180_000,
  }, async () => {
    await property(fc.array(asyncCommand, { minLength: 1, maxLength: 8 }), 12);
  });

  it('an idle client reconciles to zero everywhere', async () => {
    const model = new Model(await Integrator.create());
    await reconcile(model);
  });
});
