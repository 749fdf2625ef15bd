/**
 * One function per soak scenario: the requests an integrator (and, in staging, the network and the
 * operator) would make, and the outcome the transaction must end in, recorded as soon as the
 * gateway accepted it so the checker sees it even when a later step went wrong.
 */

import { present } from '../../src/domain/present';
import type { ApiResponse, Json } from './api';
import { APPROVAL_THRESHOLD_CENTS, MAGIC_CODES, magicPixKey, type Outcome, type Scenario } from './plan';
import { race, sendWithRetry, transactionIdOf, waitStatus } from './request-patterns';
import type { TxRecord } from './snapshot';
import type { SoakClient, TrafficContext } from './soak-context';

type Runner = (t: TrafficContext, c: SoakClient, scenario: Scenario) => Promise<void>;

export const FAR_TO = '2100-12-31';
const PAYER = { name: 'Maria da Silva', document: '12345678909' };
const PAYEE = { name: 'Ana Beneficiária', document: '12345678909' };
const brl = (cents: number) => cents / 100;
const evpKey = () => ({ type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() });

function record(
  t: TrafficContext,
  c: SoakClient,
  tx: Omit<TxRecord, 'clientId' | 'createdAt' | 'transactionId'>,
  accepted: ApiResponse,
): string {
  const transactionId = accepted.body.transactionId as string;
  t.log.transactions.push({ ...tx, clientId: c.clientId, transactionId, createdAt: Date.now() });
  return transactionId;
}

/** A client refund: once, twice at once (one must lose), or retried under one idempotency key. */
async function refund(
  t: TrafficContext,
  c: SoakClient,
  op: string,
  id: string,
  reference: string,
  reason: string,
) {
  const path = `/cash-in/${id}/refund`;
  const roll = t.random.next();
  if (roll < 0.2) {
    const send = () =>
      c.session.post(
        op,
        path,
        { reason },
        {
          expect: [202],
          allow: [{ status: 422, code: 'REFUND_NOT_ALLOWED' }],
          signed: true,
        },
      );
    await race(
      t,
      op,
      [
        { path, send },
        { path, send },
      ],
      202,
    );
  } else if (roll < 0.4) {
    const body = { reason };
    const identity = (b: Json) => b?.endToEndId as string | undefined;
    await sendWithRetry(t, c, {
      kind: 'CASH_IN',
      op,
      path,
      body,
      success: 202,
      signed: true,
      reference,
      identity,
    });
  } else {
    await c.session.post(op, path, { reason }, { expect: [202], signed: true });
  }
}

const cashIn: Runner = async (t, c, scenario) => {
  const amountCents = t.random.int(100, 200_000);
  const body = {
    amount: brl(amountCents),
    externalReference: t.reference('in'),
    payer: PAYER,
    includeQrCodeImage: false,
  };
  const refundReason = t.random.pick(['FRAUD', 'DUPLICATED_PAYMENT', 'CUSTOMER_REQUEST', 'MERCHANT_ERROR']);
  const returnReason = t.random.pick(['FRAUD', 'CUSTOMER_REQUEST', 'OTHER']);
  const expected: Record<string, Outcome> = {
    'cashin.paid': { status: 'PAID' },
    'cashin.retry': { status: 'PAID' },
    'cashin.refunded': { status: 'REFUNDED', reason: refundReason },
    'cashin.returned': { status: 'REFUNDED', reason: returnReason },
    'cashin.expired': { status: 'EXPIRED' },
    'cashin.cancelled': { status: 'CANCELLED' },
  };
  // Payment racing a cancellation or the sandbox expiry: exactly one of them may win.
  const rival = t.random.pick(['cancel', 'expire'] as const);
  const outcomes =
    scenario === 'cashin.race'
      ? [{ status: 'PAID' }, { status: rival === 'cancel' ? 'CANCELLED' : 'EXPIRED' }]
      : [present(expected[scenario], `the outcome of ${scenario}`)];
  const accepted =
    scenario === 'cashin.retry'
      ? await sendWithRetry(t, c, {
          kind: 'CASH_IN',
          op: scenario,
          path: '/cash-in',
          body,
          success: 201,
          signed: false,
          reference: body.externalReference,
          identity: transactionIdOf,
        })
      : await c.session.post(scenario, '/cash-in', body, { expect: [201] });
  const id = record(
    t,
    c,
    {
      kind: 'CASH_IN',
      scenario,
      externalReference: body.externalReference,
      amountCents,
      expected: outcomes,
      expectsRefund: scenario === 'cashin.refunded' || scenario === 'cashin.returned',
    },
    accepted,
  );
  const path = `/cash-in/${id}`;
  if (scenario === 'cashin.race') {
    const lose = { expect: [200], allow: [{ status: 422, code: 'RULE_VIOLATION' }] };
    const rivalPath = rival === 'cancel' ? `${path}/cancel` : `/sandbox${path}/expire`;
    await race(
      t,
      scenario,
      [
        {
          path: `/sandbox${path}/pay`,
          send: () => c.session.post(scenario, `/sandbox${path}/pay`, {}, lose),
        },
        { path: rivalPath, send: () => c.session.post(scenario, rivalPath, undefined, lose) },
      ],
      200,
    );
    return;
  }
  if (scenario === 'cashin.expired') {
    await c.session.post(scenario, `/sandbox${path}/expire`, undefined, { expect: [200] });
    return;
  }
  if (scenario === 'cashin.cancelled') {
    await c.session.post(scenario, `${path}/cancel`, undefined, { expect: [200] });
    return;
  }
  await c.session.post(scenario, `/sandbox${path}/pay`, {}, { expect: [200] });
  if (scenario === 'cashin.refunded') {
    await refund(t, c, scenario, id, body.externalReference, refundReason);
  } else if (scenario === 'cashin.returned') {
    await c.session.post(scenario, `/sandbox${path}/return`, { reason: returnReason }, { expect: [200] });
  }
};

const cashOut: Runner = async (t, c, scenario) => {
  const now = Date.now();
  const magic = t.random.pick(MAGIC_CODES);
  const returnReason = t.random.pick(['PAYEE_REQUESTED', 'FRAUD', 'OPERATIONAL_ERROR', 'OTHER']);
  const plan: Partial<Record<Scenario, { amount: number; outcome: Outcome; destination?: unknown }>> = {
    'cashout.completed': { amount: c.amounts.pick(100, 100_000, now), outcome: { status: 'COMPLETED' } },
    'cashout.retry': { amount: c.amounts.pick(100, 100_000, now), outcome: { status: 'COMPLETED' } },
    'cashout.failed': {
      amount: c.amounts.pick(100, 100_000, now),
      outcome: { status: 'CANCELLED', failureCode: magic },
      destination: { type: 'PIX', pixKeyType: 'EMAIL', pixKey: magicPixKey(magic) },
    },
    'cashout.returned': {
      amount: c.amounts.pick(100, 100_000, now),
      outcome: { status: 'REFUNDED', reason: returnReason },
    },
    'cashout.approved': {
      amount: c.amounts.pick(APPROVAL_THRESHOLD_CENTS, APPROVAL_THRESHOLD_CENTS + 100_000, now),
      outcome: { status: 'COMPLETED' },
    },
    'cashout.rejected': {
      amount: c.amounts.pick(APPROVAL_THRESHOLD_CENTS, APPROVAL_THRESHOLD_CENTS + 100_000, now),
      outcome: { status: 'CANCELLED', failureCode: 'APPROVAL_REJECTED' },
    },
    // Far above anything any account ever holds: cancelled after the 202, never an HTTP error.
    'cashout.insufficient': {
      amount: c.amounts.pick(5_000_000_000, 5_000_100_000, now),
      outcome: { status: 'CANCELLED', failureCode: 'INSUFFICIENT_FUNDS' },
    },
  };
  const { amount, outcome, destination } = present(plan[scenario], `the plan of ${scenario}`);
  const body = {
    amount: brl(amount),
    externalReference: t.reference('out'),
    description: 'Soak',
    payee: { ...PAYEE, destination: destination ?? evpKey() },
  };
  const accepted =
    scenario === 'cashout.retry'
      ? await sendWithRetry(t, c, {
          kind: 'CASH_OUT',
          op: scenario,
          path: '/cash-out',
          body,
          success: 202,
          signed: true,
          reference: body.externalReference,
          identity: transactionIdOf,
        })
      : await c.session.post(scenario, '/cash-out', body, { expect: [202], signed: true });
  const id = record(
    t,
    c,
    {
      kind: 'CASH_OUT',
      scenario,
      externalReference: body.externalReference,
      amountCents: amount,
      expected: [outcome],
      expectsRefund: false,
    },
    accepted,
  );
  if (scenario === 'cashout.returned') {
    const status = await waitStatus(c, scenario, 'CASH_OUT', id, (s) => s !== 'PROCESSING');
    // A Cash-Out the injected fault cancelled has nothing to return; the checker knows the fault.
    const path = `/sandbox/cash-out/${id}/return`;
    const send = () =>
      c.session.post(
        scenario,
        path,
        { reason: returnReason },
        {
          expect: [200],
          allow: [{ status: 422, code: 'RULE_VIOLATION' }],
        },
      );
    // Sometimes the payee's bank reports the return twice at once: only one may count.
    if (status === 'COMPLETED' && t.random.next() < 0.25)
      await race(
        t,
        scenario,
        [
          { path, send },
          { path, send },
        ],
        200,
      );
    else if (status === 'COMPLETED')
      await c.session.post(scenario, path, { reason: returnReason }, { expect: [200] });
  } else if (scenario === 'cashout.approved' || scenario === 'cashout.rejected') {
    const status = await waitStatus(c, scenario, 'CASH_OUT', id, (s) => s !== 'PROCESSING');
    if (status === 'PENDING') {
      const verb = scenario === 'cashout.approved' ? 'approve' : 'reject';
      await t.gateway.admin(
        scenario,
        'POST',
        `/admin/clients/${c.clientId}/cash-out/${id}/${verb}`,
        undefined,
        [200],
      );
    }
  }
};

const rebalance: Runner = async (t, c, scenario) => {
  const topUp = scenario === 'rebalance.top-up';
  const amountCents = t.random.int(10_000, 500_000);
  const res = await c.session.post(
    scenario,
    `/account/rebalance/${topUp ? 'top-up' : 'sweep'}`,
    { amount: brl(amountCents), ispb: t.random.pick(c.partners) },
    {
      expect: [201],
      allow: [
        { status: 422, code: topUp ? 'INSUFFICIENT_PROPRIETARY_FUNDS' : 'INSUFFICIENT_TRANSACTIONAL_FUNDS' },
      ],
      signed: true,
    },
  );
  if (res.status !== 201) return;
  t.log.rebalances.push({
    clientId: c.clientId,
    rebalanceId: res.body.rebalanceId,
    fromNumber: res.body.from.number,
    toNumber: res.body.to.number,
    amountCents,
  });
};

/** Money from outside, R$ 20–50 thousand, into whichever account has the least (keeps all positive). */
export async function deposit(t: TrafficContext, c: SoakClient, op: string, number?: string, cents?: number) {
  let target = number;
  if (target === undefined) {
    const balance = await c.session.get(op, '/account/balance');
    const accounts = (balance.body.partners as { accounts: { number: string; balance: number }[] }[]).flatMap(
      (p) => p.accounts,
    );
    target = accounts.reduce((low, a) => (a.balance < low.balance ? a : low)).number;
  }
  const amountCents = cents ?? t.random.int(2_000_000, 5_000_000);
  const res = await c.session.post(
    op,
    `/sandbox/accounts/${target}/deposit`,
    { amount: brl(amountCents) },
    {
      expect: [201],
    },
  );
  t.log.deposits.push({
    clientId: c.clientId,
    accountNumber: target,
    entryId: res.body.entry.id,
    amountCents,
  });
}

const readStatement: Runner = async (t, c, scenario) => {
  const account = t.random.pick(c.accounts);
  await c.session.get(
    scenario,
    `/account/${account.number}/statement?from=${c.statementStartDate}&to=${FAR_TO}&order=desc&limit=50`,
  );
};

export const RUNNERS: Record<Scenario, Runner> = {
  'cashin.paid': cashIn,
  'cashin.refunded': cashIn,
  'cashin.returned': cashIn,
  'cashin.expired': cashIn,
  'cashin.cancelled': cashIn,
  'cashin.retry': cashIn,
  'cashin.race': cashIn,
  'cashout.completed': cashOut,
  'cashout.failed': cashOut,
  'cashout.returned': cashOut,
  'cashout.approved': cashOut,
  'cashout.rejected': cashOut,
  'cashout.insufficient': cashOut,
  'cashout.retry': cashOut,
  'rebalance.top-up': rebalance,
  'rebalance.sweep': rebalance,
  deposit: (t, c, scenario) => deposit(t, c, scenario),
  'read.statement': readStatement,
};
