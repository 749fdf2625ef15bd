/**
 * The daily reconciliation of every real partner (docs/operating.md, Daily reconciliation): after an
 * America/Sao_Paulo day closes, the partner's own records of that day (received Pix with their
 * devolutions, every page; payouts sent and the balance where its payout API lists them) against
 * our books (every client's ledger and the partner-held receipts). What the bank proves and we lack
 * is booked through the normal path (deliverPix) and reported healed; every other difference stays
 * a break. The report replaces the day's last one, keeping every heal of earlier runs, so a re-run
 * is safe; breaks alert the operator.
 */

import type { BooksOfDay } from '../../durable-objects/ledger/reads/reconciliation-queries';
import { ledgerOf } from '../../durable-objects/stubs';
import { clientOfTxId } from '../db/client-keys';
import { clientIdsAtPartnerAfter } from '../db/partner-clients';
import { saveReport } from '../db/reconciliation-reports';
import { findUnapplied, partnerReceiptsBetween } from '../db/unapplied';
import {
  type BalanceFigures,
  type Break,
  balanceBreak,
  balanceView,
  breakView,
  compare,
  differenceOf,
  type Healed,
  healedView,
  type Item,
  missing,
  payoutStatus,
  type ReconciliationReport,
  reportStatus,
} from '../domain/reconciliation-matching';
import { brtStartOfDay } from '../domain/time';
import { log } from '../infra/log';
import type { BcbApiPixPartner, ReceivedPix } from '../partners/bcb-api-pix/adapter';
import type { PartnerOutcome } from '../partners/port';
import { deliverPix } from './partner-notices';
import { balanceFigures } from './reconcile-balance';
import { alertOperator } from './reconciliation-alert';

const DAY_MS = 86_400_000;
/** Items per page asked of the partner (API Pix's maximum). */
export const RECON_PAGE_SIZE = 1000;
/** Pages read per list per run: a day beyond this many items is reported PENDING, not half-read. */
export const RECON_MAX_PAGES = 100;
/** Items looked up one by one (candidates for a break) per run. */
export const RECON_MAX_LOOKUPS = 500;
/** Our side is read this much wider than the day: a Pix at 23:59:59 booked a moment after midnight still matches. */
const MARGIN_MS = 60 * 60_000;
/** Ledgers asked at once. */
const CONCURRENCY = 25;

interface Run {
  env: Env;
  partner: BcbApiPixPartner;
  maxPages: number;
  breaks: Break[];
  healed: Healed[];
  lookups: number;
  matched: number;
  pending?: string;
}

async function readPages<T>(
  maxPages: number,
  read: (page: number) => Promise<PartnerOutcome<{ items: T[]; pages: number }>>,
): Promise<{ items: T[]; pages: number } | { failure: string }> {
  const items: T[] = [];
  for (let page = 0; ; page++) {
    if (page >= maxPages) return { failure: `more than ${maxPages} pages` };
    let answer = await read(page);
    if (!answer.ok && answer.retryable) answer = await read(page); // once more, then next run
    if (!answer.ok) return { failure: `the partner did not answer (${answer.failureCode})` };
    items.push(...answer.value.items);
    if (page + 1 >= answer.value.pages) return { items, pages: page + 1 };
  }
}

const settledDevolved = (pix: ReceivedPix) =>
  pix.devolutions.filter((d) => d.status === 'DEVOLVIDO').reduce((s, d) => s + d.amountCents, 0);
const unsettledDevolved = (pix: ReceivedPix) =>
  pix.devolutions.filter((d) => d.status !== 'DEVOLVIDO').reduce((s, d) => s + d.amountCents, 0);

const receivedItem = (pix: ReceivedPix): Item => ({
  subject: 'RECEIVED',
  key: pix.endToEndId,
  endToEndId: pix.endToEndId,
  ...(pix.txid !== undefined && { transactionId: pix.txid }),
  amount: pix.amountCents,
  status: 'SETTLED',
});

/** The side of the day of every client with accounts at the partner, and the partner-held receipts. */
async function ourBooks(env: Env, ispb: string, from: number, to: number): Promise<BooksOfDay> {
  const books: BooksOfDay = { received: [], devolutions: [], payouts: [] };
  for (let after = ''; ; ) {
    const ids = await clientIdsAtPartnerAfter(env, ispb, after, CONCURRENCY);
    if (ids.length === 0) break;
    const pages = await Promise.all(ids.map((id) => ledgerOf(env, id).booksOfDay(ispb, from, to)));
    for (const page of pages) {
      books.received.push(...page.received);
      books.devolutions.push(...page.devolutions);
      books.payouts.push(...page.payouts);
    }
    after = ids.at(-1) as string;
  }
  for (const r of await partnerReceiptsBetween(env, ispb, from, to)) {
    books.received.push({
      subject: 'RECEIVED',
      key: r.endToEndId,
      endToEndId: r.endToEndId,
      amount: r.amount,
      status: 'SETTLED',
      at: r.receivedAt,
    });
    if (r.stage === 'RETURNED')
      books.devolutions.push({
        subject: 'DEVOLUTION',
        key: r.endToEndId,
        amount: r.amount,
        status: 'SETTLED',
      });
  }
  return books;
}

/** A payment of ours by its end-to-end id, wherever and whenever it was booked, with what was devolved of it. */
async function lookUp(run: Run, pix: ReceivedPix): Promise<{ received: Item; devolved: number } | undefined> {
  run.lookups += 1;
  // Only an existing client's Durable Object is touched (charge-locator.ts says why).
  const clientId = pix.txid === undefined ? undefined : await clientOfTxId(run.env, pix.txid);
  if (clientId) {
    const found = await ledgerOf(run.env, clientId).bookedPix(run.partner.ispb, pix.endToEndId);
    if (found) return found;
  }
  const held = await findUnapplied(run.env, pix.endToEndId);
  if (!held || held.ispb !== run.partner.ispb) return undefined;
  return {
    received: { ...receivedItem(pix), amount: held.amount },
    devolved: held.stage === 'RETURNED' ? held.amount : 0,
  };
}

/** Books what the partner proves through the normal path, and says whether our books now agree. */
async function heal(
  run: Run,
  pix: ReceivedPix,
): Promise<{ outcome: string[]; devolved?: number; booked: boolean }> {
  const outcome = await deliverPix(run.env, run.partner.ispb, pix);
  const after = await lookUp(run, pix);
  return { outcome, booked: after !== undefined, ...(after && { devolved: after.devolved }) };
}

async function reconcileReceived(
  run: Run,
  theirs: ReceivedPix[],
  ours: BooksOfDay,
  from: number,
  to: number,
) {
  const devolvedHere = new Map<string, number>();
  for (const d of ours.devolutions) devolvedHere.set(d.key, d.amount);
  const known = new Set<string>(ours.received.map((r) => r.key));
  const result = compare(ours.received, theirs.map(receivedItem));
  run.matched += result.matched;
  run.breaks.push(...result.breaks);
  const byKey = new Map(theirs.map((p) => [p.endToEndId, p]));
  for (const t of result.onlyTheirs) {
    const pix = byKey.get(t.key) as ReceivedPix;
    if (run.lookups >= RECON_MAX_LOOKUPS) {
      run.pending = `more than ${RECON_MAX_LOOKUPS} items to look up`;
      return;
    }
    const found = await lookUp(run, pix);
    if (found) {
      const difference = differenceOf(found.received, t);
      if (difference) run.breaks.push(difference);
      devolvedHere.set(t.key, found.devolved);
      known.add(t.key);
      continue;
    }
    const healed = await heal(run, pix);
    if (healed.booked) {
      run.healed.push({
        kind: 'MISSING_HERE',
        subject: 'RECEIVED',
        endToEndId: t.key,
        ...tx(t),
        outcome: healed.outcome,
        healedAt: new Date().toISOString(),
      });
      devolvedHere.set(t.key, healed.devolved ?? 0);
      known.add(t.key);
    } else run.breaks.push(missing('MISSING_HERE', t));
  }
  // Ours that the partner's day lacks: booked near midnight for another day, or unknown there.
  for (const o of result.onlyOurs.filter((i) => within(i, from, to))) {
    if (run.lookups >= RECON_MAX_LOOKUPS) {
      run.pending = `more than ${RECON_MAX_LOOKUPS} items to look up`;
      return;
    }
    run.lookups += 1;
    // The partner's own answer decides which day it is, never our booking clock.
    const read = await run.partner.receivedPix(o.key);
    if (!read.ok && read.retryable) {
      run.pending = `the partner did not answer (${read.failureCode})`;
      return;
    }
    const there = read.ok ? read.value : undefined;
    if (there?.endToEndId !== o.key) {
      run.breaks.push(missing('MISSING_THERE', o));
      continue;
    }
    if (there.paidAt >= from && there.paidAt < to) {
      // Listed for the day by GET /pix/{e2eid} but not by GET /pix: their list is short, ours is right.
      run.breaks.push(missing('MISSING_THERE', o));
      continue;
    }
    const difference = differenceOf(o, receivedItem(there));
    if (difference) run.breaks.push(difference);
  }
  await reconcileDevolutions(run, theirs, devolvedHere, known);
}

/** Booked by us inside the day (items of the margins read around it belong to the days beside it). */
const within = (i: Item, from: number, to: number) => i.at === undefined || (i.at >= from && i.at < to);

const tx = (i: Item) => (i.transactionId !== undefined ? { transactionId: i.transactionId } : {});

/** The devolutions of the day's Pix: what the partner settled against what we booked. */
async function reconcileDevolutions(
  run: Run,
  theirs: ReceivedPix[],
  devolvedHere: Map<string, number>,
  known: Set<string>,
) {
  for (const pix of theirs) {
    if (!known.has(pix.endToEndId)) continue; // the payment itself is a break already
    const there = settledDevolved(pix);
    let here = devolvedHere.get(pix.endToEndId) ?? 0;
    if (there === here) continue;
    const base = { subject: 'DEVOLUTION' as const, endToEndId: pix.endToEndId, ...tx(receivedItem(pix)) };
    if (here < there) {
      if (run.lookups >= RECON_MAX_LOOKUPS) {
        run.pending = `more than ${RECON_MAX_LOOKUPS} items to look up`;
        return;
      }
      const healed = await heal(run, pix);
      if (healed.devolved === there) {
        run.healed.push({
          kind: 'MISSING_HERE',
          ...base,
          outcome: healed.outcome,
          healedAt: new Date().toISOString(),
        });
        continue;
      }
      here = healed.devolved ?? here;
    }
    const ours = { amount: here, status: 'SETTLED' as const };
    const theirsFact = { amount: there, status: 'SETTLED' as const };
    if (here > there && unsettledDevolved(pix) > 0)
      run.breaks.push({
        kind: 'STATUS_DIFFERS',
        ...base,
        ours,
        theirs: {
          amount: unsettledDevolved(pix),
          status: pix.devolutions.some((d) => d.status === 'NAO_REALIZADO') ? 'FAILED' : 'PENDING',
        },
      });
    else if (there === 0) run.breaks.push({ kind: 'MISSING_THERE', ...base, ours });
    else if (here === 0) run.breaks.push({ kind: 'MISSING_HERE', ...base, theirs: theirsFact });
    else run.breaks.push({ kind: 'AMOUNT_DIFFERS', ...base, ours, theirs: theirsFact });
  }
}

async function reconcilePayouts(
  run: Run,
  ours: BooksOfDay,
  from: number,
  to: number,
  counts: Record<string, number>,
) {
  const payouts = run.partner.payouts;
  if (!payouts) return;
  const read = await readPages(run.maxPages, async (page) => {
    const answer = await payouts.sentPage(new Date(from), new Date(to), page, RECON_PAGE_SIZE);
    return answer.ok ? { ok: true, value: { items: answer.value.sent, pages: answer.value.pages } } : answer;
  });
  if ('failure' in read) {
    run.pending = `payouts: ${read.failure}`;
    return;
  }
  counts.payoutPages = read.pages;
  counts.payoutsTheirs = read.items.length;
  const theirs: Item[] = read.items.map((s) => ({
    subject: 'PAYOUT',
    key: s.idEnvio,
    ...(s.endToEndId !== null && { endToEndId: s.endToEndId }),
    amount: s.amountCents,
    status: payoutStatus(s.status),
  }));
  const result = compare(ours.payouts, theirs);
  run.matched += result.matched;
  run.breaks.push(...result.breaks);
  // Sent but not settled there and nothing booked here: no money moved (or still in flight).
  for (const t of result.onlyTheirs) if (t.status === 'SETTLED') run.breaks.push(missing('MISSING_HERE', t));
  for (const o of result.onlyOurs.filter((i) => within(i, from, to))) {
    const status = await run.partner.transferStatus(o.transactionId ?? o.key);
    run.lookups += 1;
    if (status.state === 'UNKNOWN') run.breaks.push(missing('MISSING_THERE', o));
    else if (status.state === 'FAILED')
      run.breaks.push({
        ...missing('MISSING_THERE', o),
        kind: 'STATUS_DIFFERS',
        theirs: { amount: o.amount, status: 'FAILED' },
      });
    // SETTLED at another moment than our entry's day (near midnight): the day it belongs to matches it.
  }
}

/** Checks one partner's day and keeps the report; alerts the operator when it has breaks. */
export async function reconcileDay(
  env: Env,
  partner: BcbApiPixPartner,
  date: string,
  /** Pages read per list in this run (RECON_MAX_PAGES; lower only to prove the bound). */
  maxPages = RECON_MAX_PAGES,
): Promise<ReconciliationReport> {
  const startedAt = Date.now();
  const from = brtStartOfDay(date);
  const to = from + DAY_MS;
  const run: Run = { env, partner, maxPages, breaks: [], healed: [], lookups: 0, matched: 0 };
  const counts: Record<string, number> = {};
  const received = await readPages(run.maxPages, async (page) => {
    const answer = await partner.receivedPixPage(new Date(from), new Date(to), page, RECON_PAGE_SIZE);
    return answer.ok ? { ok: true, value: { items: answer.value.pix, pages: answer.value.pages } } : answer;
  });
  let ours: BooksOfDay | undefined;
  let balance: BalanceFigures | undefined;
  if ('failure' in received) run.pending = `received Pix: ${received.failure}`;
  else {
    counts.receivedPages = received.pages;
    counts.receivedTheirs = received.items.length;
    ours = await ourBooks(env, partner.ispb, from - MARGIN_MS, to + MARGIN_MS);
    await reconcileReceived(run, received.items, ours, from, to);
    if (!run.pending) await reconcilePayouts(run, ours, from, to, counts);
    if (!run.pending) balance = await reconcileBalance(run);
  }
  counts.matched = run.matched;
  counts.lookups = run.lookups;
  counts.healed = run.healed.length;
  counts.breaks = run.breaks.length;
  counts.durationMs = Date.now() - startedAt;
  const report: ReconciliationReport = {
    date,
    ispb: partner.ispb,
    status: reportStatus(run.breaks, run.pending === undefined),
    checkedAt: new Date().toISOString(),
    counts,
    healed: run.healed.map(healedView),
    breaks: run.breaks.map(breakView),
    ...(run.pending !== undefined && { pendingReason: run.pending }),
    ...(balance && { balance: balanceView(balance) }),
  };
  // Kept with what earlier runs of the day healed.
  const kept = await saveReport(env, report);
  if (kept.status === 'BREAKS') await alertOperator(env, kept);
  log(kept.status === 'MATCHED' ? 'info' : 'warn', 'daily reconciliation', {
    date,
    ispb: partner.ispb,
    status: kept.status,
    breaks: kept.breaks.length,
    healed: report.healed.length,
  });
  return kept;
}

/** The account's balance at the partner now, against our books there less what is on its way out to it. */
async function reconcileBalance(run: Run): Promise<BalanceFigures | undefined> {
  const read = await balanceFigures(run.env, run.partner);
  if (read === undefined) return undefined;
  if ('pending' in read) {
    run.pending = read.pending;
    return undefined;
  }
  const difference = balanceBreak(read.figures);
  if (difference) run.breaks.push(difference);
  return read.figures;
}
