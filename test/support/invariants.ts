/**
 * The money invariants every race and crash test ends on, read from the client's ledger storage
 * and from the sandbox partner's own books (D1 `sandbox_transfers`):
 *
 * - every account reconciles: each balanceAfter follows from the one before, none is negative, the
 *   last one is the account balance, and GET /account/balance says the same;
 * - every hold belongs to an operation still in flight (a refund, or its devolution a bank return
 *   overtook; none once everything settled);
 * - each transaction's webhook events are its state history, one event per state change;
 * - each transaction moved money exactly as its state says (one PIX_IN per paid Cash-In, one
 *   PIX_OUT per completed Cash-Out, …) and no PIX entry belongs to no transaction; a bank's
 *   returns of a payment (booked as bank facts) are at most the payment besides the one that
 *   ended it REFUNDED;
 * - the partner paid what the ledger debited, once: one PAYMENT per completed Cash-Out with its
 *   endToEndId and amount, none settled for a cancelled one, one DEVOLUTION per refund it made.
 */

import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { allCashIns } from '../../durable-objects/ledger/cash-in/cash-in-store';
import { allCashOuts } from '../../durable-objects/ledger/cash-out/cash-out-store';
import { askable } from '../../durable-objects/ledger/cash-out/limit-totals';
import { allHolds } from '../../durable-objects/ledger/ledger/ledger-store';
import { allTasks } from '../../durable-objects/ledger/scheduler';
import {
  type BooksSnapshot,
  checkBooks,
  devolutionViolations,
  historyViolation,
  type PixOutFact,
  paymentViolations,
  pixOutTotalViolations,
  pixOutViolations,
  type SuspenseFact,
} from '../../src/domain/money-invariants';
import { BANK_RETURN_LABEL } from '../../src/domain/statement';
import { declaredPartners } from '../../src/partners/config';
import { waitFor } from './cash-in';
import type { Integrator } from './harness';
import {
  accounts as accountRows,
  cashIns as cashInRows,
  cashOuts as cashOutRows,
  holds as holdRows,
  inLedger,
  ledgerEntries,
  limitTotals,
  partnerTransfers,
  suspenseEntries,
  tasks,
} from './ledger-reads';
import { OUTCOME_MS } from './wait';
import { outboxEvents } from './webhooks';

interface EntryRow {
  seq: number;
  account_number: string;
  type: string;
  type_raw: string | null;
  direction: 'CREDIT' | 'DEBIT';
  amount: number;
  balance_after: number;
  ref: string;
  end_to_end_id: string | null;
  created_at: number;
}

interface CashInRow {
  transaction_id: string;
  status: string;
  amount: number;
  end_to_end_id: string | null;
  refund_end_to_end_id: string | null;
  refund_state: string;
  /** paidBy.allowed (1/0), null before payment: a payment not allowed is never confirmed. */
  paid_allowed: number | null;
  dispute_status: string | null;
  dispute_blocked_amount: number | null;
  dispute_defended_at: number | null;
  dispute_closed_at: number | null;
}

/** A dispute holds its blocked amount while open, and once ACCEPTED until the bank's return is booked. */
const disputeHolds = (c: CashInRow, entries: EntryRow[]) =>
  (c.dispute_status === 'OPEN' ||
    c.dispute_status === 'DEFENDED' ||
    (c.dispute_status === 'ACCEPTED' && c.status === 'PAID' && !returnedSinceClose(c, entries))) &&
  (c.dispute_blocked_amount ?? 0) > 0;

/** Whether a bank return of the Cash-In was booked at or after its dispute closed (a partial one leaves it PAID). */
const returnedSinceClose = (c: CashInRow, entries: EntryRow[]) =>
  entries.some(
    (e) =>
      e.ref === `cash-in:${c.transaction_id}` &&
      e.type === 'PIX_REFUND_OUT' &&
      e.created_at >= (c.dispute_closed_at ?? 0),
  );

interface CashOutRow {
  transaction_id: string;
  status: string;
  stage: string;
  amount: number;
  partner_ispb: string | null;
  end_to_end_id: string | null;
  failure_code: string | null;
}

interface PartnerRow {
  ispb: string;
  idempotency_id: string;
  kind: 'PAYMENT' | 'DEVOLUTION';
  amount: number;
  requests: number;
  outcome: 'SETTLED' | 'FAILED';
  failure_code: string | null;
  end_to_end_id: string | null;
  settles_at: number;
}

/** The status each event's `data` carries. */
const EVENT_STATUS: Record<string, string> = {
  CASHIN_REQUESTED: 'AWAITING_PAYMENT',
  CASHIN_PAID: 'PAID',
  CASHIN_EXPIRED: 'EXPIRED',
  CASHIN_CANCELLED: 'CANCELLED',
  CASHIN_REFUNDED: 'REFUNDED',
  // A refund that failed at the network: the Cash-In is PAID again (it may be refunded later).
  CASHIN_REFUND_FAILED: 'PAID',
  CASHOUT_REQUESTED: 'PROCESSING',
  CASHOUT_COMPLETED: 'COMPLETED',
  CASHOUT_FAILED: 'CANCELLED',
  CASHOUT_REFUNDED: 'REFUNDED',
};

export interface Books {
  /** Centavos per account number. */
  balances: Map<string, number>;
  entries: EntryRow[];
  cashIns: CashInRow[];
  cashOuts: CashOutRow[];
  /** The sandbox partner's rows for this client's transactions. */
  partner: PartnerRow[];
}

async function readBooks(clientId: string): Promise<Books> {
  const entries: EntryRow[] = (await ledgerEntries(clientId)).map((e) => ({
    seq: e.seq,
    account_number: e.accountNumber,
    type: e.type,
    type_raw: e.typeRaw,
    direction: e.direction,
    amount: e.amount,
    balance_after: e.balanceAfter,
    ref: e.ref,
    end_to_end_id: e.endToEndId,
    created_at: e.createdAt,
  }));
  const accounts = await accountRows(clientId);
  const cashIns: CashInRow[] = (await cashInRows(clientId)).map((c) => ({
    transaction_id: c.transactionId,
    status: c.status,
    amount: c.amount,
    end_to_end_id: c.endToEndId,
    refund_end_to_end_id: c.refundEndToEndId,
    refund_state: c.refundState,
    paid_allowed: c.paidBy?.allowed === undefined ? null : Number(c.paidBy.allowed),
    dispute_status: c.disputeStatus,
    dispute_blocked_amount: c.disputeBlockedAmount,
    dispute_defended_at: c.disputeDefendedAt,
    dispute_closed_at: c.disputeClosedAt,
  }));
  const cashOuts: CashOutRow[] = (await cashOutRows(clientId)).map((c) => ({
    transaction_id: c.transactionId,
    status: c.status,
    stage: c.stage,
    amount: c.amount,
    partner_ispb: c.partnerIspb,
    end_to_end_id: c.endToEndId,
    failure_code: c.failureCode,
  }));
  const ids = [
    ...cashOuts.map((c) => c.transaction_id),
    ...cashIns.flatMap((c) => (c.refund_end_to_end_id ? [c.refund_end_to_end_id] : [])),
  ];
  const partner: PartnerRow[] = (await partnerTransfers(ids)).map((t) => ({
    ispb: t.ispb,
    idempotency_id: t.idempotencyId,
    kind: t.kind,
    amount: t.amount,
    requests: t.requests,
    outcome: t.outcome,
    failure_code: t.failureCode,
    end_to_end_id: t.endToEndId,
    settles_at: t.settlesAt,
  }));
  return {
    balances: new Map(accounts.map((a) => [a.number, a.balance])),
    entries,
    cashIns,
    cashOuts,
    partner,
  };
}

/**
 * The books as src/domain/money-invariants.ts states its rules over them: the client's accounts,
 * entries in posting order, holds with the amount of the operation each holds for, and the suspense
 * account's entries.
 */
export async function booksSnapshot(clientId: string, books?: Books): Promise<BooksSnapshot> {
  const read = books ?? (await readBooks(clientId));
  const holds = (await holdRows(clientId)).map((h) => ({
    id: h.id,
    account_number: h.accountNumber,
    amount: h.amount,
    ref: h.ref,
  }));
  const suspense: SuspenseFact[] = (await suspenseEntries(clientId)).map(({ ispb, direction, amount }) => ({
    ispb,
    direction,
    amount,
  }));
  const amountOf = new Map<string, number>([
    ...read.cashIns.map((c) => [`cash-in:${c.transaction_id}`, c.amount] as const),
    ...read.cashOuts.map((c) => [`cash-out:${c.transaction_id}`, c.amount] as const),
  ]);
  return {
    accounts: [...read.balances].map(([number, balance]) => ({ number, balance })),
    entries: read.entries.map((e) => ({
      id: `${e.seq}`,
      account: e.account_number,
      direction: e.direction,
      amount: e.amount,
      balanceAfter: e.balance_after,
      bankFact: e.type_raw === BANK_RETURN_LABEL,
    })),
    holds: holds.map((h) => ({
      id: h.id,
      account: h.account_number,
      amount: h.amount,
      covers: amountOf.get(h.ref),
    })),
    suspense,
  };
}

/**
 * The money invariants (balance chain, our debits never overdrawing before a bank fact, holds,
 * suspense), and the statement order (created_at, seq) being the posting order.
 */
async function checkAccounts(clientId: string, books: Books): Promise<void> {
  for (const number of books.balances.keys()) {
    const seqOrder = books.entries.filter((e) => e.account_number === number);
    const statementOrder = [...seqOrder].sort((a, b) => a.created_at - b.created_at || a.seq - b.seq);
    expect(
      statementOrder.map((e) => e.seq),
      `statement order of ${number}`,
    ).toEqual(seqOrder.map((e) => e.seq));
  }
  expect(checkBooks(await booksSnapshot(clientId, books)), 'money invariants').toEqual([]);
}

const cashOutFact = (c: CashOutRow) => ({
  id: c.transaction_id,
  status: c.status,
  amount: c.amount,
  ispb: c.partner_ispb,
  endToEndId: c.end_to_end_id,
});

/** The PIX_OUT entries, each with the Cash-Out it pays and that Cash-Out's partner. */
function pixOutFacts(books: Books): PixOutFact[] {
  const byRef = new Map(books.cashOuts.map((c) => [`cash-out:${c.transaction_id}`, c]));
  return books.entries.flatMap((e) => {
    if (e.type !== 'PIX_OUT') return [];
    const c = byRef.get(e.ref);
    return [
      {
        cashOut: c?.transaction_id,
        ispb: c?.partner_ispb ?? null,
        amount: e.amount,
        endToEndId: e.end_to_end_id,
      },
    ];
  });
}

/** Each transaction's events are its state history, and each moved money as its state says. */
function checkTransactions(books: Books, events: Map<string, { type: string; status?: string }[]>): void {
  const entriesOf = (ref: string, type: string) =>
    books.entries.filter((e) => e.ref === ref && e.type === type);
  for (const c of books.cashIns) {
    // Failed refund attempts are told as they happen; the state history is the rest.
    const all = events.get(c.transaction_id) ?? [];
    const history = all.filter(
      (e) => e.type !== 'CASHIN_REFUND_FAILED' && !e.type.startsWith('CASHIN_DISPUTE_'),
    );
    // A dispute's events tell its own history: opened, defended, closed, each once.
    expect(
      all.filter((e) => e.type.startsWith('CASHIN_DISPUTE_')).map((e) => e.type),
      `dispute events of Cash-In ${c.transaction_id}`,
    ).toEqual(
      c.dispute_status === null
        ? []
        : [
            'CASHIN_DISPUTE_OPENED',
            ...(c.dispute_defended_at !== null ? ['CASHIN_DISPUTE_UPDATED'] : []),
            ...(c.dispute_closed_at !== null ? ['CASHIN_DISPUTE_CLOSED'] : []),
          ],
    );
    // A payment the client's payer rules refuse is never confirmed (docs/contract.md, Who paid).
    const fact = {
      kind: 'CASH_IN',
      id: c.transaction_id,
      status: c.status,
      paidRefused: c.paid_allowed === 0,
    } as const;
    expect(
      historyViolation({ ...fact, events: history.map((e) => e.type) }, { inFlight: true }),
    ).toBeUndefined();
    const ref = `cash-in:${c.transaction_id}`;
    const moved = ['PAID', 'REFUNDED'].includes(c.status);
    const pixIn = entriesOf(ref, 'PIX_IN');
    expect(
      pixIn.map((e) => e.amount),
      `PIX_IN of ${c.transaction_id}`,
    ).toEqual(moved ? [c.amount] : []);
    // A client devolution a bank return overtook, settled anyway, is a second outflow: a bank fact.
    const refundOut = entriesOf(ref, 'PIX_REFUND_OUT');
    const overtaken = refundOut.filter(
      (e) => e.end_to_end_id !== c.refund_end_to_end_id && e.type_raw === BANK_RETURN_LABEL,
    );
    const main = refundOut.filter((e) => !overtaken.includes(e));
    expect(
      main.map((e) => e.end_to_end_id),
      `PIX_REFUND_OUT of ${c.transaction_id}`,
    ).toEqual(c.status === 'REFUNDED' ? [c.refund_end_to_end_id] : []);
    // Our refund returns the whole payment; a bank's return is what the bank says it returned.
    for (const e of main)
      if (e.type_raw === BANK_RETURN_LABEL) expect(e.amount).toBeLessThanOrEqual(c.amount);
      else expect(e.amount, `refund of ${c.transaction_id}`).toBe(c.amount);
    // Beyond it: a client devolution a return overtook, or the rest of a partial return, each once.
    const beyond = overtaken.reduce((sum, e) => sum + e.amount, 0);
    expect(beyond, `further devolutions of ${c.transaction_id}`).toBeLessThanOrEqual(c.amount);
  }
  for (const c of books.cashOuts) {
    const told = (events.get(c.transaction_id) ?? []).map((e) => e.type);
    const fact = { kind: 'CASH_OUT', id: c.transaction_id, status: c.status, events: told } as const;
    expect(historyViolation(fact, { inFlight: true })).toBeUndefined();
    const ref = `cash-out:${c.transaction_id}`;
    expect(entriesOf(ref, 'PIX_REFUND_IN').map((e) => e.amount)).toEqual(
      c.status === 'REFUNDED' ? [c.amount] : [],
    );
  }
  expect(pixOutViolations(books.cashOuts.map(cashOutFact), pixOutFacts(books)), 'PIX_OUT entries').toEqual(
    [],
  );
  for (const list of events.values())
    for (const e of list)
      if (e.status === undefined) continue;
      // A dispute changes no status: its events carry the Cash-In's, paid or returned.
      else if (e.type.startsWith('CASHIN_DISPUTE_'))
        expect(['PAID', 'REFUNDED'], `data.status of ${e.type}`).toContain(e.status);
      else expect(e.status, `data.status of ${e.type}`).toBe(EVENT_STATUS[e.type]);
  // No PIX money without its transaction; both legs of every rebalance.
  const known = new Set([
    ...books.cashIns.map((c) => `cash-in:${c.transaction_id}`),
    ...books.cashOuts.map((c) => `cash-out:${c.transaction_id}`),
  ]);
  for (const e of books.entries.filter((x) => x.type.startsWith('PIX_')))
    expect(known.has(e.ref), `owner of entry ${e.seq} (${e.ref})`).toBe(true);
  const rebalances = new Set(books.entries.filter((e) => e.ref.startsWith('rebalance:')).map((e) => e.ref));
  for (const ref of rebalances) {
    const legs = books.entries.filter((e) => e.ref === ref);
    expect(legs.map((e) => e.type).sort(), ref).toEqual(['TRANSFER_IN', 'TRANSFER_OUT']);
    expect(legs[0]!.amount).toBe(legs[1]!.amount);
  }
}

/** The partner paid what the ledger debited and nothing else. */
function checkPartnerBooks(books: Books, settled: boolean): void {
  // A declared real partner keeps its own books (the fake PSP's, which its tests read themselves).
  const real = new Set(declaredPartners(env).map((p) => p.ispb));
  const ours = books.cashOuts.filter((c) => !real.has(c.partner_ispb as string));
  const payments = books.partner.filter((p) => p.kind === 'PAYMENT');
  // The shared rule (src/domain/money-invariants.ts): paid once, as the ledger says, or not at all.
  const facts = ours.map(cashOutFact);
  const paid = payments.map((p) => ({
    id: p.idempotency_id,
    ispb: p.ispb,
    amount: p.amount,
    outcome: p.outcome,
    endToEndId: p.end_to_end_id,
  }));
  expect(paymentViolations(facts, paid), 'partner payments').toEqual([]);
  // With nothing in flight, what the partner settled totals the PIX_OUT entries booked there.
  const ourIds = new Set(ours.map((c) => c.transaction_id));
  const pixOut = pixOutFacts(books).filter((e) => e.cashOut !== undefined && ourIds.has(e.cashOut));
  if (settled) expect(pixOutTotalViolations(paid, pixOut), 'partner totals').toEqual([]);
  for (const c of ours) {
    const rows = payments.filter((p) => p.idempotency_id === c.transaction_id);
    expect(rows.length, `partner payments of ${c.transaction_id}`).toBeLessThanOrEqual(1);
    const row = rows[0];
    // Cancelled after reaching the partner: only because the partner failed it.
    if (c.status === 'CANCELLED' && row)
      expect(row).toMatchObject({ outcome: 'FAILED', failure_code: c.failure_code, amount: c.amount });
  }
  // A devolution the partner made ends the Cash-In REFUNDED once our poll has seen it.
  const refunds = books.cashIns.map((c) => ({
    id: c.transaction_id,
    status: c.status,
    amount: c.amount,
    refundEndToEndId: c.refund_end_to_end_id,
    refundInFlight: c.refund_state === 'PROCESSING',
  }));
  const devolutions = books.partner.flatMap((p) =>
    p.kind === 'DEVOLUTION' ? [{ id: p.idempotency_id, amount: p.amount, outcome: p.outcome }] : [],
  );
  expect(devolutionViolations(refunds, devolutions), 'devolutions').toEqual([]);
}

/** Holds belong to operations in flight only. */
async function checkHolds(
  clientId: string,
  books: Books,
): Promise<{ id: string; ref: string; amount: number }[]> {
  const holds = (await holdRows(clientId)).map(({ id, ref, amount }) => ({ id, ref, amount }));
  const superseded = (await tasks(clientId, 'poll-superseded-devolution')).map((t) => t.ref);
  // Every dispute that holds money holds exactly its blocked amount, under its own hold.
  for (const c of books.cashIns.filter((x) => disputeHolds(x, books.entries)))
    expect(
      holds.find((h) => h.id === `dispute:${c.transaction_id}`)?.amount,
      `dispute hold of ${c.transaction_id}`,
    ).toBe(c.dispute_blocked_amount);
  for (const h of holds) {
    const [kind, id] = h.ref.split(':') as [string, string];
    if (h.id.startsWith('dispute:')) {
      const c = books.cashIns.find((x) => x.transaction_id === id);
      expect(c && disputeHolds(c, books.entries), `hold ${h.id} without an open dispute`).toBe(true);
    } else if (kind === 'cash-out') {
      const c = books.cashOuts.find((x) => x.transaction_id === id);
      expect(c && c.stage !== 'DONE', `hold ${h.id} of a finished Cash-Out`).toBe(true);
      expect(h.amount).toBe(c!.amount);
    } else {
      const c = books.cashIns.find((x) => x.transaction_id === id);
      // A refund in flight, or its devolution still followed after a bank return overtook it.
      const followed = superseded.some((ref) => ref.startsWith(`${id}|`));
      expect(c?.refund_state === 'PROCESSING' || followed, `hold ${h.id} without a refund in flight`).toBe(
        true,
      );
      expect(h.amount).toBe(c!.amount);
    }
  }
  return holds;
}

/**
 * The withdrawal limits' running totals (limit_totals) equal a recount of the Cash-Outs they stand
 * for: reserved (a partner assigned) and not cancelled, by BRT day, BRT month and payee-day.
 */
export async function checkLimitTotals(clientId: string): Promise<void> {
  // Only rows a limit can still ask for are kept exact: older ones are pruned (askable).
  const now = Date.now();
  const live = (key: string) => askable(key.split('|')[1] as string, now);
  const stored = (await limitTotals(clientId)).filter((r) => r.cents !== 0 && live(r.key));
  // The recount: each reserved, not cancelled Cash-Out counts on its BRT day, month and payee-day.
  const sums = new Map<string, number>();
  for (const c of await cashOutRows(clientId)) {
    if (c.status === 'CANCELLED' || c.partnerIspb === null) continue;
    const d = new Date((Math.floor(c.requestedAt / 1000) - 10800) * 1000).toISOString().slice(0, 10);
    for (const key of [`D|${d}`, `M|${d.slice(0, 7)}`, `P|${d}|${c.destinationKey}`])
      sums.set(key, (sums.get(key) ?? 0) + c.amount);
  }
  const recount = [...sums]
    .filter(([key]) => live(key))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, cents]) => ({ key, cents }));
  expect(stored, 'limit running totals equal a recount of the Cash-Outs').toEqual(recount);
}

/** Each transaction's webhook events, with the status their payload carries while it is held. */
async function webhookEvents(clientId: string) {
  const events = new Map<string, { type: string; status?: string }[]>();
  for (const e of await outboxEvents(clientId)) {
    // Health incident events (aggregate `incident:…`) are not transaction history.
    if (!/^CASH(IN|OUT)_/.test(e.eventType)) continue;
    const list = events.get(e.aggregateId) ?? [];
    list.push({ type: e.eventType, status: (e.data as { status: string } | undefined)?.status });
    events.set(e.aggregateId, list);
  }
  return events;
}

/**
 * Asserts every invariant above and returns the books for the test's own expectations. With
 * `settled` (the default) nothing may still be in flight: no Cash-Out PROCESSING, no refund
 * PROCESSING, and no hold but those of Cash-Outs PENDING approval.
 */
export async function assertBooks(api: Integrator, { settled = true } = {}): Promise<Books> {
  const clientId = api.client.clientId;
  const books = await readBooks(clientId);
  await checkAccounts(clientId, books);
  checkTransactions(books, await webhookEvents(clientId));
  checkPartnerBooks(books, settled);
  const holds = await checkHolds(clientId, books);
  await checkLimitTotals(clientId);
  if (settled) {
    const pending = new Set(
      books.cashOuts.filter((c) => c.status === 'PENDING').map((c) => `cash-out:${c.transaction_id}`),
    );
    expect(
      holds.filter((h) => !pending.has(h.ref) && !h.id.startsWith('dispute:')),
      'holds left',
    ).toEqual([]);
    expect(books.cashOuts.filter((c) => c.status === 'PROCESSING')).toEqual([]);
    expect(books.cashIns.filter((c) => c.refund_state === 'PROCESSING')).toEqual([]);
  }
  // The API reports the same balances.
  const res = await api.get('/account/balance');
  expect(res.status).toBe(200);
  const body = (await res.json()) as { partners: { accounts: { number: string; balance: number }[] }[] };
  for (const a of body.partners.flatMap((p) => p.accounts))
    expect(Math.round(a.balance * 100), `reported balance of ${a.number}`).toBe(books.balances.get(a.number));
  return books;
}

/**
 * Waits until nothing is in flight: no Cash-Out PROCESSING, no refund PROCESSING or overtaken
 * devolution still followed, no holds.
 */
export async function quiesce(api: Integrator, timeoutMs = OUTCOME_MS): Promise<void> {
  const clientId = api.client.clientId;
  // One look inside the object, so the four counts are of one moment.
  const busy = () =>
    inLedger(clientId, ({ db }) => {
      const outs = allCashOuts(db);
      const notPending = new Set(
        outs.filter((c) => c.status !== 'PENDING').map((c) => `cash-out:${c.transactionId}`),
      );
      return (
        outs.filter((c) => c.status === 'PROCESSING').length +
        allCashIns(db).filter((c) => c.refundState === 'PROCESSING').length +
        allTasks(db).filter((t) => t.kind === 'poll-superseded-devolution').length +
        allHolds(db).filter((h) => notPending.has(h.ref)).length
      );
    });
  await waitFor(
    busy,
    (n) => n === 0,
    timeoutMs,
    'no operation of the client in flight (Cash-Outs, refunds, holds)',
  );
}

/** Sum of a list of entry amounts of one type. */
export const total = (books: Books, type: string) =>
  books.entries.filter((e) => e.type === type).reduce((s, e) => s + e.amount, 0);
