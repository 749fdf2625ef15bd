/**
 * The daily reconciliation's rules (docs/contract.md, Reconciliation): a partner's own records
 * of one America/Sao_Paulo day against our books, item by item. Pure: the driver
 * (src/cron/reconcile-day.ts) reads both sides and heals what the bank proves.
 */

export const BREAK_KINDS = ['MISSING_HERE', 'MISSING_THERE', 'AMOUNT_DIFFERS', 'STATUS_DIFFERS'] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];

/** What is compared: a received Pix, the devolutions of one, a payout sent, the account balance. */
export type Subject = 'RECEIVED' | 'DEVOLUTION' | 'PAYOUT' | 'BALANCE';

/** One side's record of an item: centavos, and SETTLED, PENDING or FAILED. */
export interface Fact {
  amount: number;
  status: 'SETTLED' | 'PENDING' | 'FAILED';
}

/** An item keyed the same on both sides: the payment's end-to-end id, or a payout's idEnvio. */
export interface Item extends Fact {
  subject: Subject;
  key: string;
  endToEndId?: string;
  transactionId?: string;
  /** When our books recorded it (our side only): picks the items of the day among the margins read. */
  at?: number;
}

export interface Break {
  kind: BreakKind;
  subject: Subject;
  endToEndId?: string;
  transactionId?: string;
  ours?: Fact;
  theirs?: Fact;
}

export interface Healed {
  kind: 'MISSING_HERE';
  subject: Subject;
  endToEndId: string;
  transactionId?: string;
  /** What booking it through the normal path did (the partner callback's outcomes). */
  outcome: string[];
  /** When it was booked (absent on reports kept before heals were dated). */
  healedAt?: string;
}

export type ReportStatus = 'MATCHED' | 'BREAKS' | 'PENDING';

export interface ReconciliationReport {
  date: string;
  ispb: string;
  status: ReportStatus;
  checkedAt: string;
  counts: Record<string, number>;
  healed: HealedView[];
  breaks: BreakView[];
  /** Why a PENDING report could not finish (the partner was unreachable, too many pages). */
  pendingReason?: string;
  /** The balance check's figures, where the partner's API reports its balance (BRL). */
  balance?: BalanceView;
}

/**
 * The balance check in centavos: what our books hold at the partner now, of it what was already asked
 * of the partner and has not settled (a bank debits a payout or a devolution when it takes it, our
 * books when it settles), and the partner's balance. `books − inFlightOut` is compared with `theirs`.
 */
export interface BalanceFigures {
  books: number;
  inFlightOut: number;
  theirs: number;
}

/** The BALANCE break of the figures, or undefined when they agree to the centavo. */
export function balanceBreak(f: BalanceFigures): Break | undefined {
  const ours = f.books - f.inFlightOut;
  if (ours === f.theirs) return undefined;
  return {
    kind: 'AMOUNT_DIFFERS',
    subject: 'BALANCE',
    ours: { amount: ours, status: 'SETTLED' },
    theirs: { amount: f.theirs, status: 'SETTLED' },
  };
}

/** The figures as the report shows them (BRL); `ours` is the figure compared, books less in flight. */
export function balanceView(f: BalanceFigures) {
  return {
    books: f.books / 100,
    inFlightOut: f.inFlightOut / 100,
    ours: (f.books - f.inFlightOut) / 100,
    theirs: f.theirs / 100,
  };
}
export type BalanceView = ReturnType<typeof balanceView>;

const idOf = (i: Pick<Item, 'subject' | 'key'>) => `${i.subject}:${i.key}`;

export interface Comparison {
  /** Items the partner has and we lack: candidates to look up (maybe booked on another day), then heal. */
  onlyTheirs: Item[];
  /** Items we have and the partner's day lacks: candidates to look up at the partner. */
  onlyOurs: Item[];
  breaks: Break[];
  matched: number;
}

/** The difference of one item present on both sides, or undefined when they agree. */
export function differenceOf(ours: Item, theirs: Item): Break | undefined {
  const ref = {
    subject: ours.subject,
    ...((theirs.endToEndId ?? ours.endToEndId) !== undefined && {
      endToEndId: theirs.endToEndId ?? ours.endToEndId,
    }),
    ...(ours.transactionId !== undefined && { transactionId: ours.transactionId }),
    ours: { amount: ours.amount, status: ours.status },
    theirs: { amount: theirs.amount, status: theirs.status },
  };
  if (ours.status !== theirs.status) return { kind: 'STATUS_DIFFERS', ...ref };
  if (ours.amount !== theirs.amount) return { kind: 'AMOUNT_DIFFERS', ...ref };
  return undefined;
}

/** Both sides of a day, item by item. */
export function compare(ours: readonly Item[], theirs: readonly Item[]): Comparison {
  const mine = new Map(ours.map((i) => [idOf(i), i]));
  const result: Comparison = { onlyTheirs: [], onlyOurs: [], breaks: [], matched: 0 };
  const seen = new Set<string>();
  for (const t of theirs) {
    const id = idOf(t);
    seen.add(id);
    const o = mine.get(id);
    if (!o) {
      result.onlyTheirs.push(t);
      continue;
    }
    const difference = differenceOf(o, t);
    if (difference) result.breaks.push(difference);
    else result.matched += 1;
  }
  for (const o of ours) if (!seen.has(idOf(o))) result.onlyOurs.push(o);
  return result;
}

export function missing(kind: 'MISSING_HERE' | 'MISSING_THERE', item: Item): Break {
  const fact = { amount: item.amount, status: item.status };
  return {
    kind,
    subject: item.subject,
    ...(item.endToEndId !== undefined && { endToEndId: item.endToEndId }),
    ...(item.transactionId !== undefined && { transactionId: item.transactionId }),
    ...(kind === 'MISSING_HERE' ? { theirs: fact } : { ours: fact }),
  };
}

const brl = (f: Fact) => ({ amount: f.amount / 100, status: f.status });

/** A break as the report shows it (amounts in BRL, like every amount of the API). */
export function breakView(b: Break) {
  return {
    kind: b.kind,
    subject: b.subject,
    ...(b.endToEndId !== undefined && { endToEndId: b.endToEndId }),
    ...(b.transactionId !== undefined && { transactionId: b.transactionId }),
    ...(b.ours && { ours: brl(b.ours) }),
    ...(b.theirs && { theirs: brl(b.theirs) }),
  };
}
export type BreakView = ReturnType<typeof breakView>;

export function healedView(h: Healed) {
  return { ...h, outcome: [...h.outcome] };
}
export type HealedView = ReturnType<typeof healedView>;

/** The statuses of a payout as Efí lists it. */
export function payoutStatus(status: string): Fact['status'] {
  if (status === 'REALIZADO') return 'SETTLED';
  if (status === 'NAO_REALIZADO') return 'FAILED';
  return 'PENDING';
}

/** A report's status: breaks decide it; a day not fully read stays PENDING. */
export function reportStatus(breaks: readonly unknown[], complete: boolean): ReportStatus {
  if (!complete) return 'PENDING';
  return breaks.length > 0 ? 'BREAKS' : 'MATCHED';
}
