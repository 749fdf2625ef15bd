/**
 * The soak's invariants, pure functions of a Snapshot: every one returns what it checked and each
 * violation in words. Nothing here trusts the gateway's own bookkeeping: statements are re-added,
 * every ledger entry must be explained by exactly one operation the driver made, every transaction
 * must end where its scenario says with exactly the events of that end, and the partners' books
 * must show each payment once.
 */
import {
  type BooksSnapshot,
  checkBooks,
  devolutionViolations,
  historyViolation,
  paymentViolations,
  pixOutTotalViolations,
} from '../../src/domain/money-invariants';
import { BANK_RETURN_LABEL } from '../../src/domain/statement';
import { FAULT_SLACK_MS, isFinal, MAX_PROCESSING_MS, type Outcome } from './plan';
import type { AccountSnapshot, Snapshot, TxSnapshot, TxView } from './snapshot';

export interface InvariantResult {
  name: string;
  /** How many things were looked at (responses, entries, transactions…). */
  checked: number;
  failures: string[];
  /** Facts worth printing that are not violations. */
  notes?: string[];
}

const brl = (cents: number) => (cents / 100).toFixed(2);
const describe = (o: Outcome | TxView) =>
  [o.status, o.failureCode, o.reason, 'ispb' in o ? o.ispb : undefined].filter(Boolean).join('/');

/** (1) No answer the scenario did not expect, and never a 5xx. */
function responses(s: Snapshot): InvariantResult {
  return {
    name: 'no unexpected responses (5xx, network)',
    checked: s.requests,
    failures: s.unexpected.map((u) =>
      `${u.op}: ${u.method} ${u.path} → ${u.status} ${u.code ?? ''} ${u.detail ?? ''}`.trim(),
    ),
  };
}

/** (2) Each account: the statement adds up, chains, our debits never overdraw it, and it equals the balance. */
function accounts(s: Snapshot): InvariantResult {
  const failures: string[] = [];
  let checked = 0;
  for (const a of s.accounts) {
    const where = `account ${a.number} (${a.type} at ${a.ispb})`;
    const ids = new Set<string>();
    let previousDate = '';
    for (const e of a.statement) {
      checked += 1;
      if (ids.has(e.id)) failures.push(`${where}: entry ${e.id} appears twice in the statement walk`);
      ids.add(e.id);
      if (e.date < previousDate) failures.push(`${where}: entry ${e.id} is out of order (${e.date})`);
      previousDate = e.date;
    }
    if (a.balanceCents === undefined) {
      failures.push(`${where}: missing from GET /account/balance`);
      continue;
    }
    // The money invariants over this account's books (src/domain/money-invariants.ts): the chain,
    // the balance, and only a bank fact overdrawing it first.
    const books: BooksSnapshot = {
      accounts: [{ number: a.number, balance: a.balanceCents }],
      entries: a.statement.map((e) => ({
        id: e.id,
        account: a.number,
        direction: e.direction,
        amount: e.amountCents,
        balanceAfter: e.balanceAfterCents ?? Number.NaN,
        bankFact: e.typeRaw === BANK_RETURN_LABEL,
      })),
      holds: [],
      suspense: [],
    };
    for (const v of checkBooks(books))
      failures.push(
        v.entry
          ? `${where}: balance negative (${brl(v.entry.balanceAfter)}) after entry ${v.entry.id}`
          : `${where}: ${v.detail}`,
      );
    // A Cash-Out still PENDING or PROCESSING holds its amount; its own invariant says whether it
    // should still be there. Anything else held is money the ledger lost track of.
    const held = heldBy(s, a.number);
    if (a.availableCents !== a.balanceCents - held) {
      failures.push(
        `${where}: available ${brl(a.availableCents ?? Number.NaN)} ≠ balance ${brl(a.balanceCents)} ` +
          `− ${brl(held)} held by Cash-Outs still PENDING or PROCESSING`,
      );
    }
  }
  return { name: 'accounts reconcile (statement = balance)', checked, failures };
}

function heldBy(s: Snapshot, accountNumber: string): number {
  let held = 0;
  for (const tx of s.transactions) {
    const v = tx.view;
    if (tx.kind !== 'CASH_OUT' || !v || v.settlement?.account !== accountNumber) continue;
    if (v.status === 'PENDING' || v.status === 'PROCESSING') held += v.amountCents;
  }
  return held;
}

/**
 * (7) No Cash-Out stays PROCESSING longer than the partner time-out plus its retries: from
 * requestedAt to completedAt/cancelledAt, or to when it was last read still PROCESSING. Cash-Outs
 * that waited for an operator (PENDING) are left out: their time is the operator's.
 */
function processingBounded(s: Snapshot): InvariantResult {
  const failures: string[] = [];
  let checked = 0;
  let longest = 0;
  for (const tx of s.transactions) {
    const v = tx.view;
    if (tx.kind !== 'CASH_OUT' || !v?.requestedAtMs) continue;
    if (tx.scenario === 'cashout.approved' || tx.scenario === 'cashout.rejected') continue;
    const until = v.status === 'PROCESSING' ? v.readAtMs : v.endedAtMs;
    if (until === undefined) continue;
    checked += 1;
    const spent = until - v.requestedAtMs;
    longest = Math.max(longest, spent);
    if (spent > MAX_PROCESSING_MS) {
      failures.push(
        `${tx.transactionId} (${tx.scenario}): PROCESSING for ${(spent / 1000).toFixed(1)} s` +
          `${v.status === 'PROCESSING' ? ' and still' : ` before ${v.status}`} (bound ${MAX_PROCESSING_MS / 1000} s)`,
      );
    }
  }
  return {
    name: 'no Cash-Out PROCESSING beyond the partner time-out and retries',
    checked,
    failures,
    notes: [`longest PROCESSING ${(longest / 1000).toFixed(1)} s (bound ${MAX_PROCESSING_MS / 1000} s)`],
  };
}

interface ExpectedEntry {
  what: string;
  account?: string;
  direction: 'CREDIT' | 'DEBIT';
  amountCents: number;
  originalEndToEndId?: string;
}

/** The ledger entries the driver's operations must have produced, by a key a statement item yields. */
function expectedEntries(s: Snapshot): Map<string, ExpectedEntry> {
  const out = new Map<string, ExpectedEntry>();
  for (const d of s.deposits) {
    out.set(`deposit:${d.entryId}`, {
      what: `deposit ${d.entryId}`,
      account: d.accountNumber,
      direction: 'CREDIT',
      amountCents: d.amountCents,
    });
  }
  for (const r of s.rebalances) {
    const base = { amountCents: r.amountCents };
    out.set(`rebalance:${r.rebalanceId}:OUT`, {
      ...base,
      what: `rebalance ${r.rebalanceId} out`,
      account: r.fromNumber,
      direction: 'DEBIT',
    });
    out.set(`rebalance:${r.rebalanceId}:IN`, {
      ...base,
      what: `rebalance ${r.rebalanceId} in`,
      account: r.toNumber,
      direction: 'CREDIT',
    });
  }
  for (const tx of s.transactions) {
    const v = tx.view;
    if (!v) continue;
    const base = { account: v.settlement?.account, amountCents: tx.amountCents } as const;
    const name = `${tx.kind === 'CASH_IN' ? 'Cash-In' : 'Cash-Out'} ${tx.transactionId}`;
    const paymentE2e = v.status === 'REFUNDED' ? v.originalEndToEndId : v.endToEndId;
    const settled = tx.kind === 'CASH_IN' ? ['PAID', 'REFUNDED'] : ['COMPLETED', 'REFUNDED'];
    if (!settled.includes(v.status)) continue;
    const [pay, back] = tx.kind === 'CASH_IN' ? ['PIX_IN', 'PIX_REFUND_OUT'] : ['PIX_OUT', 'PIX_REFUND_IN'];
    const payDirection = tx.kind === 'CASH_IN' ? 'CREDIT' : 'DEBIT';
    out.set(`${pay}:${paymentE2e}`, { ...base, what: `${name} ${pay}`, direction: payDirection });
    if (v.status === 'REFUNDED') {
      out.set(`${back}:${v.endToEndId}`, {
        ...base,
        what: `${name} ${back}`,
        direction: payDirection === 'CREDIT' ? 'DEBIT' : 'CREDIT',
        ...(paymentE2e !== undefined && { originalEndToEndId: paymentE2e }),
      });
    }
  }
  return out;
}

/** (2b) Every entry of every statement is explained by exactly one operation, and vice versa. */
function ledgerMatchesOperations(s: Snapshot): InvariantResult {
  const expected = expectedEntries(s);
  const depositIds = new Set(s.deposits.map((d) => d.entryId));
  const seen = new Set<string>();
  const failures: string[] = [];
  let checked = 0;
  const keyOf = (e: AccountSnapshot['statement'][number]) => {
    if (depositIds.has(e.id)) return `deposit:${e.id}`;
    const rebalance = /RB[0-9A-F]{32}/.exec(e.description ?? '');
    if (e.type.startsWith('TRANSFER_') && rebalance)
      return `rebalance:${rebalance[0]}:${e.type === 'TRANSFER_OUT' ? 'OUT' : 'IN'}`;
    return e.endToEndId ? `${e.type}:${e.endToEndId}` : `unexplained:${e.id}`;
  };
  for (const a of s.accounts) {
    for (const e of a.statement) {
      checked += 1;
      const key = keyOf(e);
      const want = expected.get(key);
      const entry = `${e.type} ${e.direction} ${brl(e.amountCents)} (${e.id}) on ${a.number}`;
      if (!want) {
        failures.push(`${entry} matches no operation of the run`);
        continue;
      }
      if (seen.has(key)) failures.push(`${entry} is a second entry for ${want.what}`);
      seen.add(key);
      if (want.account !== a.number || want.amountCents !== e.amountCents || want.direction !== e.direction) {
        failures.push(
          `${entry} does not match ${want.what}: ${want.direction} ${brl(want.amountCents)} on ${want.account}`,
        );
      }
      if (want.originalEndToEndId !== undefined && e.originalEndToEndId !== want.originalEndToEndId) {
        failures.push(`${entry}: originalEndToEndId ${e.originalEndToEndId} ≠ ${want.originalEndToEndId}`);
      }
    }
  }
  for (const [key, want] of expected) {
    if (!seen.has(key)) failures.push(`${want.what}: no entry in the statement of ${want.account}`);
  }
  return { name: 'every entry is one operation, every operation its entries', checked, failures };
}

/**
 * What a transaction may end as: its scenario's outcome, or the injected fault's where it met it
 * (or, with `foreign`, a failure the partner's books show it answered, at that partner).
 */
export function allowedOutcomes(
  tx: TxSnapshot,
  s: Pick<Snapshot, 'faults' | 'partner' | 'tolerateForeignFaults'>,
): Outcome[] {
  const reachesPartner =
    tx.kind === 'CASH_OUT' && !['cashout.rejected', 'cashout.insufficient'].includes(tx.scenario);
  if (!reachesPartner) return tx.expected;
  const out = [...tx.expected];
  for (const f of s.faults) {
    const met = tx.createdAt >= f.from - FAULT_SLACK_MS.before && tx.createdAt <= f.to + FAULT_SLACK_MS.after;
    if (f.operation === 'CASH_OUT' && f.failureCode && met)
      out.push({ status: 'CANCELLED', failureCode: f.failureCode, ispb: f.ispb });
  }
  if (s.tolerateForeignFaults) {
    for (const r of s.partner) {
      if (
        r.kind === 'PAYMENT' &&
        r.idempotencyId === tx.transactionId &&
        r.outcome === 'FAILED' &&
        r.failureCode
      )
        out.push({ status: 'CANCELLED', failureCode: r.failureCode, ispb: r.ispb });
    }
  }
  return out;
}

const matches = (o: Outcome, v: TxView) =>
  o.status === v.status &&
  (o.failureCode === undefined || o.failureCode === v.failureCode) &&
  (o.reason === undefined || o.reason === v.reason) &&
  (o.ispb === undefined || o.ispb === v.settlement?.ispb);

/** (3) Each transaction ended as its scenario says, is listed once, and has exactly that history. */
function transactions(s: Snapshot): InvariantResult {
  const failures: string[] = [];
  for (const tx of s.transactions) {
    const name = `${tx.scenario} ${tx.transactionId}`;
    const v = tx.view;
    if (!v) {
      failures.push(`${name}: never read back`);
      continue;
    }
    if (!isFinal(tx.kind, v.status, tx.expectsRefund)) failures.push(`${name}: still ${v.status}, not final`);
    const allowed = allowedOutcomes(tx, s);
    if (!allowed.some((o) => matches(o, v)))
      failures.push(`${name}: ended ${describe(v)}, expected ${allowed.map(describe).join(' or ')}`);
    if (v.amountCents !== tx.amountCents)
      failures.push(`${name}: amount ${brl(v.amountCents)} ≠ ${brl(tx.amountCents)}`);
    if (tx.listed.length !== 1) failures.push(`${name}: listed ${tx.listed.length} times`);
    else if (tx.listed[0] !== v.status)
      failures.push(`${name}: list says ${tx.listed[0]}, GET says ${v.status}`);
    const history = historyViolation({
      kind: tx.kind,
      id: tx.transactionId,
      status: v.status,
      events: tx.events,
    });
    if (history) failures.push(`${tx.scenario} ${history.detail}`);
  }
  for (const stray of s.strayListed) {
    failures.push(
      `${stray.kind} ${stray.transactionId} (${stray.externalReference}) is listed but the run never created it`,
    );
  }
  return {
    name: 'transactions end as planned, with a valid event history',
    checked: s.transactions.length,
    failures,
  };
}

/** (4) No payment reached a partner twice; the partners' books agree with the ledger. */
function partnerBooks(s: Snapshot): InvariantResult {
  const failures: string[] = [];
  const payments = new Map<string, Snapshot['partner']>();
  const devolutions = new Map<string, Snapshot['partner']>();
  for (const row of s.partner) {
    const into = row.kind === 'PAYMENT' ? payments : devolutions;
    into.set(row.idempotencyId, [...(into.get(row.idempotencyId) ?? []), row]);
  }
  // The Cash-Outs against the partners' payments: the shared rule (src/domain/money-invariants.ts).
  const cashOuts = s.transactions.flatMap((tx) =>
    tx.kind === 'CASH_OUT' && tx.view
      ? [
          {
            id: tx.transactionId,
            status: tx.view.status,
            amount: tx.amountCents,
            ispb: tx.view.settlement?.ispb ?? null,
            endToEndId:
              (tx.view.status === 'REFUNDED' ? tx.view.originalEndToEndId : tx.view.endToEndId) ?? null,
          },
        ]
      : [],
  );
  const partnerPaid = [...payments.values()].flat().map((r) => ({
    id: r.idempotencyId,
    ispb: r.ispb,
    amount: r.amountCents,
    outcome: r.outcome,
    endToEndId: r.endToEndId ?? null,
  }));
  failures.push(...paymentViolations(cashOuts, partnerPaid).map((v) => v.detail));
  let checked = cashOuts.length;
  // A REFUNDED Cash-In against the devolutions under its id: a client refund is sent to the partner
  // once and settles; a bank-initiated return is not sent at all.
  const refunds = s.transactions.flatMap((tx) =>
    tx.kind === 'CASH_IN' && tx.view?.status === 'REFUNDED' && tx.view.endToEndId
      ? [
          {
            id: `${tx.transactionId} (${tx.scenario})`,
            status: tx.view.status,
            amount: tx.amountCents,
            refundEndToEndId: tx.view.endToEndId,
            refundInFlight: false,
            sentByUs: tx.scenario === 'cashin.refunded',
          },
        ]
      : [],
  );
  checked += refunds.length;
  const sent = [...devolutions.values()]
    .flat()
    .map((r) => ({ id: r.idempotencyId, amount: r.amountCents, outcome: r.outcome }));
  failures.push(...devolutionViolations(refunds, sent).map((v) => v.detail));
  // What each partner settled against the PIX_OUT entries of the accounts there.
  const pixOut = s.accounts.flatMap((a) =>
    a.statement.flatMap((e) =>
      e.type === 'PIX_OUT'
        ? [{ cashOut: undefined, ispb: a.ispb, amount: e.amountCents, endToEndId: e.endToEndId ?? null }]
        : [],
    ),
  );
  failures.push(...pixOutTotalViolations(partnerPaid, pixOut).map((v) => v.detail));
  const resent = s.partner.filter((r) => r.requests > 1).length;
  return {
    name: 'no payment reached a partner twice; partner totals = PIX_OUT',
    checked,
    failures,
    notes: resent > 0 ? [`${resent} transfers were re-sent to a partner under the same id (idempotent)`] : [],
  };
}

/** (5) A retried request (same X-Idempotency-Key) made one transaction. */
function idempotentRetries(s: Snapshot): InvariantResult {
  const failures: string[] = [];
  for (const r of s.retries) {
    const ok = r.answers.filter((a) => a.status >= 200 && a.status < 300);
    const ids = new Set(ok.map((a) => a.transactionId));
    const name = `${r.kind} ${r.externalReference}`;
    if (ok.length !== r.answers.length)
      failures.push(`${name}: a retry never got through (${r.answers.map((a) => a.status)})`);
    if (ids.size !== 1) failures.push(`${name}: ${ids.size} different transactions for one idempotency key`);
    const firsts = ok.filter((a) => !a.replayed).length;
    if (firsts !== 1)
      failures.push(`${name}: ${firsts} answers were first executions (the rest must be replays)`);
    const extra = s.strayListed.filter(
      (x) => x.clientId === r.clientId && x.externalReference === r.externalReference,
    );
    if (extra.length > 0) failures.push(`${name}: ${extra.length} more transactions listed for it`);
  }
  return { name: 'idempotent retries made one transaction', checked: s.retries.length, failures };
}

/** (6) Background work (alarms, queues, cron) failed nowhere: the worker logged no error line. */
function workerLog(log: NonNullable<Snapshot['workerLog']>): InvariantResult {
  return {
    name: 'the worker logged no error',
    checked: log.lines,
    failures: log.errors.map((line) => line.slice(0, 300)),
    notes:
      log.warnings > 0
        ? [`${log.warnings} warning lines in the worker's console (workerd's own included)`]
        : [],
  };
}

export function checkInvariants(s: Snapshot): InvariantResult[] {
  return [
    responses(s),
    accounts(s),
    ledgerMatchesOperations(s),
    transactions(s),
    processingBounded(s),
    partnerBooks(s),
    idempotentRetries(s),
    ...(s.workerLog ? [workerLog(s.workerLog)] : []),
  ];
}
