/**
 * The money invariants, over one snapshot shape, in one place: the tests' books check
 * (test/support/invariants.ts), the soak's (scripts/soak/invariants.ts) and the ledger's own
 * write-path assertions (durable-objects/ledger/ledger/books-guard.ts) all apply these rules.
 *
 * - Balance chain: every entry moves a positive, exact number of centavos; its balanceAfter is the
 *   one before it plus a credit or minus a debit; the account's balance is the last balanceAfter.
 *   Our own debits never take an account below zero unless a fact the bank reported (a return it
 *   made) came first on that account.
 * - Holds: a hold sets aside a positive amount, never above the operation it holds for; a new
 *   reservation never takes what an account holds above its balance.
 * - Suspense: the suspense account at a partner (unapplied receipts) never goes below zero.
 * - Partner payments: the partner paid each Cash-Out once and only as the ledger says: one payment
 *   settled, of its amount, at its partner, under its endToEndId, for a COMPLETED or REFUNDED one;
 *   none for a CANCELLED one; never one id sent as two payments.
 * - PIX_OUT: a paid Cash-Out (COMPLETED, REFUNDED) has one PIX_OUT entry, of its amount, under its
 *   payment's endToEndId; any other has none. What the partners settled at each of them totals the
 *   PIX_OUT entries booked there.
 * - Devolutions: a refund reaches the partner at most once, for the whole Cash-In; once it is no
 *   longer in flight, a devolution the partner shows means the Cash-In is REFUNDED.
 * - Event history: a transaction's webhook events are its state history, one per state change.
 *
 * Each rule answers why it is broken, or undefined; `checkBooks` walks a whole snapshot with them.
 */

export type InvariantRule =
  | 'balance-chain'
  | 'overdraft'
  | 'hold'
  | 'reservation'
  | 'suspense'
  | 'partner-payment'
  | 'pix-out'
  | 'devolution'
  | 'event-history';

export interface Violation {
  rule: InvariantRule;
  detail: string;
  /** An overdraft's entry and the balance it left (for readers that word it their own way). */
  entry?: { id: string; balanceAfter: number };
}

/** One ledger entry as every reader sees it: in posting order within its account. */
export interface EntryFact {
  id: string;
  account: string;
  direction: 'CREDIT' | 'DEBIT';
  amount: number;
  balanceAfter: number;
  /** A fact the bank reported (a return it made): recorded whatever the balance. */
  bankFact: boolean;
}

/** A hold and the amount of the operation it holds for (undefined when that is not known). */
export interface HoldFact {
  id: string;
  account: string;
  amount: number;
  covers: number | undefined;
}

export interface SuspenseFact {
  ispb: string;
  direction: 'CREDIT' | 'DEBIT';
  amount: number;
}

/** A Cash-Out as the ledger ended it; `endToEndId` is its payment's (kept when it was REFUNDED). */
export interface CashOutFact {
  id: string;
  status: string;
  amount: number;
  ispb: string | null;
  endToEndId: string | null;
}

/** A payment in the partner's own books, under the Cash-Out's id. */
export interface PaymentFact {
  id: string;
  ispb: string;
  amount: number;
  outcome: 'SETTLED' | 'FAILED';
  endToEndId: string | null;
}

/** The books at one instant: what the rules are stated over. */
export interface BooksSnapshot {
  accounts: { number: string; balance: number }[];
  entries: EntryFact[];
  holds: HoldFact[];
  suspense: SuspenseFact[];
  /** With the partners' payments: the Cash-Outs whose payments they must show. */
  cashOuts?: CashOutFact[];
  payments?: PaymentFact[];
}

/** The balance an entry leaves, from the one before it. */
export const balanceAfter = (before: number, e: Pick<EntryFact, 'direction' | 'amount'>) =>
  e.direction === 'CREDIT' ? before + e.amount : before - e.amount;

/** An entry against the balance before it. */
export function entryViolation(before: number, e: Omit<EntryFact, 'bankFact'>): Violation | undefined {
  if (!Number.isSafeInteger(e.amount) || e.amount <= 0)
    return { rule: 'balance-chain', detail: `entry ${e.id} on ${e.account} moves ${e.amount} centavos` };
  const want = balanceAfter(before, e);
  if (e.balanceAfter !== want || !Number.isSafeInteger(e.balanceAfter))
    return {
      rule: 'balance-chain',
      detail: `entry ${e.id} on ${e.account}: balanceAfter ${e.balanceAfter}, the balance before it and its ${e.direction} make ${want}`,
    };
  return undefined;
}

/** The account's balance against its last entry's balanceAfter. */
export function balanceViolation(account: string, balance: number, last: number): Violation | undefined {
  return balance === last
    ? undefined
    : { rule: 'balance-chain', detail: `account ${account}: balance ${balance}, last balanceAfter ${last}` };
}

export function holdViolation(h: HoldFact): Violation | undefined {
  if (!Number.isSafeInteger(h.amount) || h.amount <= 0)
    return { rule: 'hold', detail: `hold ${h.id} on ${h.account} sets aside ${h.amount} centavos` };
  if (h.covers !== undefined && h.amount > h.covers)
    return {
      rule: 'hold',
      detail: `hold ${h.id} on ${h.account}: ${h.amount} centavos for an operation of ${h.covers}`,
    };
  return undefined;
}

/** After a new reservation: what the account holds against its balance. */
export function reservationViolation(account: string, held: number, balance: number): Violation | undefined {
  return held <= balance
    ? undefined
    : { rule: 'reservation', detail: `account ${account} holds ${held} centavos of a balance of ${balance}` };
}

export function suspenseViolation(ispb: string, held: number): Violation | undefined {
  return held >= 0 ? undefined : { rule: 'suspense', detail: `suspense at ${ispb} holds ${held} centavos` };
}

/** Each Cash-Out against the partners' payments under its id. */
export function paymentViolations(
  cashOuts: readonly CashOutFact[],
  payments: readonly PaymentFact[],
): Violation[] {
  const out: Violation[] = [];
  const byId = new Map<string, PaymentFact[]>();
  for (const p of payments) byId.set(p.id, [...(byId.get(p.id) ?? []), p]);
  for (const [id, rows] of byId)
    if (rows.length > 1)
      out.push({
        rule: 'partner-payment',
        detail: `Cash-Out ${id} reached ${rows.length} partners: ${rows.map((r) => r.ispb)}`,
      });
  for (const c of cashOuts) {
    const settled = (byId.get(c.id) ?? []).filter((p) => p.outcome === 'SETTLED');
    if (c.status === 'COMPLETED' || c.status === 'REFUNDED') {
      const [row] = settled;
      if (settled.length !== 1 || !row)
        out.push({
          rule: 'partner-payment',
          detail: `Cash-Out ${c.id} ${c.status}: ${settled.length} settled payments at partners`,
        });
      else if (row.amount !== c.amount || row.ispb !== c.ispb || row.endToEndId !== c.endToEndId)
        out.push({
          rule: 'partner-payment',
          detail: `Cash-Out ${c.id} of ${c.amount} at ${c.ispb} as ${c.endToEndId}: the partner paid ${row.amount} at ${row.ispb} as ${row.endToEndId}`,
        });
    } else if (c.status === 'CANCELLED' && settled.length > 0)
      out.push({
        rule: 'partner-payment',
        detail: `Cash-Out ${c.id} is CANCELLED but a partner settled its payment`,
      });
  }
  return out;
}

/** Every rule over a whole snapshot: each account's chain, every hold, every partner's suspense and payments. */
export function checkBooks(s: BooksSnapshot): Violation[] {
  const out: Violation[] = [];
  const push = (v: Violation | undefined) => v && out.push(v);
  for (const a of s.accounts) {
    let running = 0;
    let bankFactSeen = false;
    for (const e of s.entries) {
      if (e.account !== a.number) continue;
      push(entryViolation(running, e));
      running = e.balanceAfter;
      if (e.bankFact) bankFactSeen = true;
      else if (e.direction === 'DEBIT' && running < 0 && !bankFactSeen)
        push({
          rule: 'overdraft',
          detail: `our debit ${e.id} took ${a.number} to ${running}`,
          entry: { id: e.id, balanceAfter: running },
        });
    }
    push(balanceViolation(a.number, a.balance, running));
  }
  for (const h of s.holds) push(holdViolation(h));
  const suspense = new Map<string, number>();
  for (const e of s.suspense) {
    const held = balanceAfter(suspense.get(e.ispb) ?? 0, e);
    suspense.set(e.ispb, held);
    push(suspenseViolation(e.ispb, held));
  }
  if (s.cashOuts && s.payments) out.push(...paymentViolations(s.cashOuts, s.payments));
  return out;
}

/** One PIX_OUT entry: the Cash-Out it pays (undefined when its reader cannot tell), where, how much. */
export interface PixOutFact {
  cashOut: string | undefined;
  ispb: string | null;
  amount: number;
  endToEndId: string | null;
}

/** Each Cash-Out against its PIX_OUT entries: one, as paid, when COMPLETED or REFUNDED; else none. */
export function pixOutViolations(
  cashOuts: readonly CashOutFact[],
  entries: readonly PixOutFact[],
): Violation[] {
  const out: Violation[] = [];
  const byCashOut = new Map<string, PixOutFact[]>();
  for (const e of entries) if (e.cashOut) byCashOut.set(e.cashOut, [...(byCashOut.get(e.cashOut) ?? []), e]);
  for (const c of cashOuts) {
    const booked = byCashOut.get(c.id) ?? [];
    const paid = c.status === 'COMPLETED' || c.status === 'REFUNDED';
    const [one] = booked;
    if (!paid && booked.length > 0)
      out.push({
        rule: 'pix-out',
        detail: `Cash-Out ${c.id} ${c.status} has ${booked.length} PIX_OUT entries`,
      });
    else if (paid && (booked.length !== 1 || one?.amount !== c.amount || one.endToEndId !== c.endToEndId))
      out.push({
        rule: 'pix-out',
        detail:
          `Cash-Out ${c.id} ${c.status} of ${c.amount} as ${c.endToEndId}: PIX_OUT ` +
          `entries ${booked.map((e) => `${e.amount} as ${e.endToEndId}`).join(', ') || 'none'}`,
      });
  }
  return out;
}

/** What the partners settled at each ISPB against the PIX_OUT entries booked there, in centavos. */
export function pixOutTotalViolations(
  payments: readonly PaymentFact[],
  entries: readonly PixOutFact[],
): Violation[] {
  const paid = new Map<string, number>();
  for (const p of payments) if (p.outcome === 'SETTLED') paid.set(p.ispb, (paid.get(p.ispb) ?? 0) + p.amount);
  const booked = new Map<string, number>();
  for (const e of entries) if (e.ispb !== null) booked.set(e.ispb, (booked.get(e.ispb) ?? 0) + e.amount);
  const out: Violation[] = [];
  for (const ispb of new Set([...paid.keys(), ...booked.keys()]))
    if ((paid.get(ispb) ?? 0) !== (booked.get(ispb) ?? 0))
      out.push({
        rule: 'pix-out',
        detail: `partner ${ispb} paid ${paid.get(ispb) ?? 0} centavos, PIX_OUT entries there total ${booked.get(ispb) ?? 0}`,
      });
  return out;
}

/** A Cash-In and its refund as the ledger keeps them. */
export interface RefundFact {
  id: string;
  status: string;
  amount: number;
  /** The devolution's id, under which the partner keeps it; null before any refund. */
  refundEndToEndId: string | null;
  refundInFlight: boolean;
  /** When the reader knows how it was returned: by our refund (sent once, settled) or by the bank (never sent). */
  sentByUs?: boolean;
}

/** A devolution in the partner's own books, under its id. */
export interface DevolutionFact {
  id: string;
  amount: number;
  outcome: 'SETTLED' | 'FAILED';
}

/** Each refund against the devolutions the partner shows under its id. */
export function devolutionViolations(
  cashIns: readonly RefundFact[],
  devolutions: readonly DevolutionFact[],
): Violation[] {
  const out: Violation[] = [];
  const push = (c: RefundFact, why: string) =>
    out.push({ rule: 'devolution', detail: `Cash-In ${c.id}: ${why}` });
  for (const c of cashIns) {
    const rows = c.refundEndToEndId === null ? [] : devolutions.filter((d) => d.id === c.refundEndToEndId);
    const [row] = rows;
    if (rows.length > 1) push(c, `${rows.length} devolutions sent under ${c.refundEndToEndId}`);
    else if (c.sentByUs !== undefined && rows.length !== (c.sentByUs ? 1 : 0))
      push(
        c,
        `${rows.length} devolutions sent, ${c.sentByUs ? 'its refund sends one' : 'a bank return sends none'}`,
      );
    else if (row && row.amount !== c.amount)
      push(c, `devolution of ${row.amount} centavos for a payment of ${c.amount}`);
    else if (row && c.sentByUs !== undefined && row.outcome !== 'SETTLED')
      push(c, `devolution ${row.outcome}`);
    else if (row && !c.refundInFlight && c.status !== 'REFUNDED')
      push(c, `${c.status} although the partner shows its devolution`);
  }
  return out;
}

export type TransactionKind = 'CASH_IN' | 'CASH_OUT';

/** The webhook events a transaction that ended in each status has sent, in order: one per state change. */
export const FINAL_HISTORIES: Readonly<Record<TransactionKind, Readonly<Record<string, readonly string[]>>>> =
  {
    CASH_IN: {
      PAID: ['CASHIN_REQUESTED', 'CASHIN_PAID'],
      REFUNDED: ['CASHIN_REQUESTED', 'CASHIN_PAID', 'CASHIN_REFUNDED'],
      EXPIRED: ['CASHIN_REQUESTED', 'CASHIN_EXPIRED'],
      CANCELLED: ['CASHIN_REQUESTED', 'CASHIN_CANCELLED'],
    },
    CASH_OUT: {
      COMPLETED: ['CASHOUT_REQUESTED', 'CASHOUT_COMPLETED'],
      CANCELLED: ['CASHOUT_REQUESTED', 'CASHOUT_FAILED'],
      REFUNDED: ['CASHOUT_REQUESTED', 'CASHOUT_COMPLETED', 'CASHOUT_REFUNDED'],
    },
  };

/** A transaction still in flight has told only its request. */
const IN_FLIGHT_HISTORIES: Readonly<Record<TransactionKind, Readonly<Record<string, readonly string[]>>>> = {
  CASH_IN: { AWAITING_PAYMENT: ['CASHIN_REQUESTED'] },
  CASH_OUT: { PROCESSING: ['CASHOUT_REQUESTED'], PENDING: ['CASHOUT_REQUESTED'] },
};

export interface HistoryFact {
  kind: TransactionKind;
  id: string;
  status: string;
  /** Its state events in order (refund failures and dispute events tell their own stories). */
  events: readonly string[];
  /** A payment the client's payer rules refused: never confirmed (docs/contract.md, Who paid). */
  paidRefused?: boolean;
}

/**
 * The events against the history of the transaction's status; `inFlight`: a status not yet final
 * is read as far as it went, else only a final status has a history.
 */
export function historyViolation(t: HistoryFact, { inFlight = false } = {}): Violation | undefined {
  const history =
    FINAL_HISTORIES[t.kind][t.status] ?? (inFlight ? IN_FLIGHT_HISTORIES[t.kind][t.status] : undefined);
  const expected = history?.filter((e) => !(t.paidRefused && e === 'CASHIN_PAID'));
  if (expected && expected.join() === t.events.join()) return undefined;
  const name = t.kind === 'CASH_IN' ? 'Cash-In' : 'Cash-Out';
  return {
    rule: 'event-history',
    detail: `${name} ${t.id}: ${t.status} with events [${t.events.join(', ')}], expected [${expected?.join(', ') ?? ''}]`,
  };
}
