/**
 * The end of the real-bank leg (bank-traffic.ts): once the PSP is up again and every devolution the
 * soak started is settled, waits until each Cash-In agrees with the PSP, then compares the books
 * centavo by centavo. The PSP's books are the truth: every Pix it received for a client's charge is
 * one PIX_IN of its amount, every devolution it made (ours or a bank's) one PIX_REFUND_OUT of its
 * amount, and the client's balance is what they add up to — with nothing held any more. A second
 * payment's return (an unapplied receipt) is RETURNED exactly when the PSP made its one devolution,
 * else FAILED and still read; and the daily reconciliation owes no day once the PSP lists again.
 */

import { present } from '../../src/domain/present';
import { lastClosedDay } from '../../src/domain/reconciliation-days';
import type { Gateway, Json } from './api';
import type { BankDuplicate, BankLog, BankOptions, BankRun, BankTx } from './bank-traffic';
import { mapLimit, walk } from './collect';
import type { InvariantResult } from './invariants';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const cents = (amount: number | string) => Math.round(Number(amount) * 100);
const brl = (c: number) => (c / 100).toFixed(2);

interface Devolution {
  id: string;
  rtrId: string;
  valor: string;
  status: string;
}

interface TxState {
  tx: BankTx;
  view: Json;
  /** The PSP's Pix for this charge (null: nobody paid it). */
  pix: { endToEndId: string; valor: string; devolucoes: Devolution[] } | null;
}

/** Why this Cash-In does not agree with the PSP yet, or undefined when it does. */
function disagreement(s: TxState): string | undefined {
  const status = s.view.status as string;
  const id = s.tx.transactionId;
  if (!s.pix)
    return ['AWAITING_PAYMENT', 'EXPIRED', 'CANCELLED'].includes(status)
      ? undefined
      : `${id} is ${status} but the PSP received no Pix for it`;
  if (!['PAID', 'REFUNDED'].includes(status)) return `${id} is ${status} but the PSP received ${s.pix.valor}`;
  const devolved = s.pix.devolucoes.filter((d) => d.status === 'DEVOLVIDO');
  if (s.pix.devolucoes.some((d) => d.status === 'EM_PROCESSAMENTO'))
    return `${id}: a devolution is in flight`;
  // REFUNDED once the whole payment went back; a bank return of less leaves it PAID (docs/contract.md, Disputes).
  const devolvedCents = devolved.reduce((sum, d) => sum + Math.round(Number(d.valor) * 100), 0);
  const whole = devolvedCents >= Math.round(Number(s.pix.valor) * 100);
  if (devolved.length > 0 && (status === 'REFUNDED') !== whole)
    return `${id} is ${status} but the PSP devolved ${devolved.map((d) => d.valor).join(' + ')} of ${s.pix.valor}`;
  if (devolved.length === 0 && status === 'REFUNDED') return `${id} is REFUNDED but the PSP devolved nothing`;
  // Every infraction the soak opened is decided at the PSP: the gateway's dispute must be closed too.
  const dispute = s.view.dispute?.status as string | undefined;
  if (dispute === 'OPEN' || dispute === 'DEFENDED') return `${id}: its dispute is still ${dispute}`;
  return undefined;
}

async function readStates(run: BankRun, o: BankOptions): Promise<TxState[]> {
  const byClient = new Map(run.clients.map((c) => [c.clientId, c]));
  return mapLimit(run.log.transactions, 6, async (tx) => {
    const view = (
      await present(byClient.get(tx.clientId), `client ${tx.clientId}`).session.get(
        'bank.collect',
        `/cash-in/${tx.transactionId}`,
      )
    ).body;
    const pix = tx.endToEndId ? await o.control(`pix/${tx.endToEndId}`) : null;
    return { tx, view, pix };
  });
}

/** Settles at the PSP every devolution still in processing (the network's part) and waits for agreement. */
async function awaitAgreement(run: BankRun, o: BankOptions, progress: (l: string) => void) {
  const deadline = Date.now() + (o.finalityTimeoutMs ?? 8 * 60_000);
  for (;;) {
    const states = await readStates(run, o);
    for (const { pix } of states)
      for (const d of pix?.devolucoes ?? [])
        if (pix && d.status === 'EM_PROCESSAMENTO')
          await o.control('devolution', { endToEndId: pix.endToEndId, id: d.id, ok: true });
    const open = states.filter((s) => disagreement(s) !== undefined);
    if (open.length === 0 || Date.now() > deadline) return states;
    progress(
      `bank leg: ${open.length} Cash-Ins do not agree with the PSP yet (${disagreement(present(open[0], 'an open Cash-In'))})`,
    );
    await sleep(10_000);
  }
}

/** Why this unapplied receipt does not agree with the PSP yet, or undefined when it does. */
function receiptDisagreement(dup: BankDuplicate, pix: Json, receipt: Json | undefined): string | undefined {
  const devolutions = (pix?.devolucoes ?? []) as Devolution[];
  if (devolutions.length > 1) return `${dup.endToEndId}: ${devolutions.length} devolutions asked at the PSP`;
  if (!receipt) return `${dup.endToEndId}: not listed in GET /admin/unapplied`;
  const [d] = devolutions;
  const want = d?.status === 'DEVOLVIDO' ? 'RETURNED' : d?.status === 'NAO_REALIZADO' ? 'FAILED' : undefined;
  if (!want) return `${dup.endToEndId}: its devolution is ${d?.status ?? 'not asked'} at the PSP`;
  if (receipt.return?.status !== want)
    return `${dup.endToEndId}: ${receipt.return?.status} but the PSP's devolution is ${d?.status}`;
  if (want === 'RETURNED' && receipt.return?.endToEndId !== d?.rtrId)
    return `${dup.endToEndId}: RETURNED as ${receipt.return?.endToEndId}, the PSP's rtrId is ${d?.rtrId}`;
  if (want === 'FAILED' && !receipt.return?.readUntil) return `${dup.endToEndId}: FAILED and no longer read`;
  return undefined;
}

/** Every unapplied receipt the operator lists for the partner (all pages). */
async function listReceipts(gateway: Gateway, ispb: string): Promise<Map<string, Json>> {
  const receipts = new Map<string, Json>();
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ ispb, limit: '200', ...(cursor && { cursor }) });
    const page = (await gateway.admin('bank.collect', 'GET', `/admin/unapplied?${query}`, undefined, [200]))
      .body;
    for (const item of page.items as Json[]) receipts.set(item.endToEndId, item);
    cursor = page.nextCursor;
  } while (cursor);
  return receipts;
}

/** Waits until each second payment's return agrees with the PSP; one still in flight there is settled. */
async function checkReceipts(
  run: BankRun,
  o: BankOptions,
  gateway: Gateway,
  progress: (l: string) => void,
): Promise<InvariantResult> {
  const deadline = Date.now() + (o.finalityTimeoutMs ?? 8 * 60_000);
  for (;;) {
    const receipts = await listReceipts(gateway, o.ispb);
    const failures: string[] = [];
    for (const dup of run.log.duplicates) {
      const pix = await o.control(`pix/${dup.endToEndId}`);
      for (const d of (pix?.devolucoes ?? []) as Devolution[])
        if (d.status === 'EM_PROCESSAMENTO')
          await o.control('devolution', { endToEndId: dup.endToEndId, id: d.id, ok: true });
      const why = receiptDisagreement(dup, pix, receipts.get(dup.endToEndId));
      if (why) failures.push(why);
    }
    if (failures.length === 0 || Date.now() > deadline) {
      const settled = run.log.duplicates.filter((d) => d.refused && d.settled).length;
      return {
        name: 'unapplied returns agree with the PSP (refused, then settled)',
        checked: run.log.duplicates.length,
        failures,
        notes: [`${run.log.duplicates.length} second payments, ${settled} refused then settled`],
      };
    }
    progress(`bank leg: ${failures.length} unapplied returns do not agree with the PSP yet (${failures[0]})`);
    await sleep(10_000);
  }
}

/**
 * Waits until the reconciliation owes the partner no day: the last closed day, first met while the
 * PSP could not list it, is checked (MATCHED or BREAKS) once it can. A PENDING day is retried every
 * 10 minutes, so this waits up to 12 minutes past the end of the listing outage.
 */
async function checkReconciliation(
  run: BankRun,
  o: BankOptions,
  gateway: Gateway,
  progress: (l: string) => void,
): Promise<InvariantResult> {
  const deadline = Math.max(Date.now(), run.log.listingOutage?.to ?? 0) + 12 * 60_000;
  for (;;) {
    const date = lastClosedDay(Date.now());
    const path = `/admin/reconciliation?date=${date}&ispb=${o.ispb}`;
    const res = await gateway.admin('bank.collect', 'GET', path, undefined, [200], [{ status: 404 }]);
    const report = res.status === 200 ? res.body : undefined;
    const why =
      report === undefined
        ? `${date} not checked yet`
        : report.status === 'PENDING'
          ? `${date} PENDING (${report.pendingReason}), ${report.daysBehind} day(s) behind`
          : report.daysBehind !== 0
            ? `${report.daysBehind} day(s) behind`
            : undefined;
    if (!why || Date.now() > deadline)
      return {
        name: 'daily reconciliation owes no day after a listing outage',
        checked: 1,
        failures: why ? [why] : [],
        notes: report
          ? [
              `${date}: ${report.status}, ${report.healed.length} healed, ${report.breaks.length} breaks`,
              // What broke, so a soak's report says which side saw what (the gateway is gone after).
              ...report.breaks.map((b: BreakSeen) => `  break: ${describeBreak(b)}`),
            ]
          : [],
      };
    progress(`bank leg: reconciliation not caught up yet (${why})`);
    await sleep(20_000);
  }
}

interface BreakSeen {
  kind: string;
  subject: string;
  endToEndId?: string;
  ours?: { amount: number; status: string };
  theirs?: { amount: number; status: string };
}

function describeBreak(b: BreakSeen): string {
  const side = (name: string, f?: { amount: number; status: string }) =>
    f ? ` ${name} ${f.amount} centavos ${f.status}` : ` ${name} none`;
  return `${b.kind} ${b.subject}${b.endToEndId ? ` ${b.endToEndId}` : ''}${side('ours', b.ours)}${side('theirs', b.theirs)}`;
}

/** Waits for the gateway to catch up with the PSP, then checks the books. */
export async function checkBankBooks(
  run: BankRun,
  o: BankOptions,
  gateway: Gateway,
  progress: (line: string) => void,
): Promise<InvariantResult[]> {
  progress(
    `bank leg: ${run.log.transactions.length} Cash-Ins; waiting for the gateway to agree with the PSP`,
  );
  const states = await awaitAgreement(run, o, progress);
  const agreement: InvariantResult = {
    name: 'real-partner Cash-Ins agree with the PSP',
    checked: states.length,
    failures: states.flatMap((s) => disagreement(s) ?? []),
  };
  const books: InvariantResult = {
    name: 'real-partner ledger = PSP books (centavo by centavo)',
    checked: 0,
    failures: [],
  };
  for (const c of run.clients) {
    const mine = states.filter((s) => s.tx.clientId === c.clientId && s.pix);
    // What the PSP says moved: each received Pix, each devolution it made.
    const facts: { kind: string; payment: string; ids: string[]; cents: number }[] = [];
    for (const s of mine) {
      const pix = present(s.pix, `the PSP's Pix of ${s.tx.transactionId}`);
      facts.push({ kind: 'PIX_IN', payment: pix.endToEndId, ids: [pix.endToEndId], cents: cents(pix.valor) });
      for (const d of pix.devolucoes.filter((x) => x.status === 'DEVOLVIDO'))
        facts.push({
          kind: 'PIX_REFUND_OUT',
          payment: pix.endToEndId,
          ids: [d.id, d.rtrId],
          cents: cents(d.valor),
        });
    }
    const pspCents = facts.reduce((sum, f) => sum + (f.kind === 'PIX_IN' ? f.cents : -f.cents), 0);
    const balance = (await c.session.get('bank.collect', '/account/balance')).body;
    const shown = new Map<string, Json>(
      (balance.partners as Json[]).flatMap((p) => p.accounts).map((a: Json) => [a.number, a]),
    );
    for (const account of c.accounts) {
      const entries = await walk(c, `/account/${account.number}/statement?order=asc`);
      const a = shown.get(account.number);
      const balanceCents = cents(a?.balance ?? Number.NaN);
      const availableCents = cents(a?.available ?? a?.balance ?? Number.NaN);
      books.checked += entries.length + 1;
      const expectedCents = account.type === 'TRANSACTIONAL' ? pspCents : 0;
      if (balanceCents !== expectedCents)
        books.failures.push(
          `${account.number} (${account.type}): balance ${brl(balanceCents)}, the PSP's books ${brl(expectedCents)}`,
        );
      if (availableCents !== balanceCents)
        books.failures.push(`${account.number}: ${brl(balanceCents - availableCents)} still held at the end`);
      let running = 0;
      const unmatched = account.type === 'TRANSACTIONAL' ? [...facts] : [];
      for (const e of entries) {
        running += e.direction === 'CREDIT' ? cents(e.amount) : -cents(e.amount);
        if (e.balanceAfter !== undefined && cents(e.balanceAfter) !== running)
          books.failures.push(
            `${account.number}: entry ${e.id} balanceAfter ${e.balanceAfter}, sum ${brl(running)}`,
          );
        const i = unmatched.findIndex(
          (f) =>
            f.kind === e.type &&
            f.cents === cents(e.amount) &&
            f.ids.includes(e.endToEndId) &&
            (f.kind === 'PIX_IN' || e.originalEndToEndId === f.payment),
        );
        if (i === -1)
          books.failures.push(
            `${account.number}: ${e.type} ${e.amount} (${e.endToEndId}) is not in the PSP's books, or is there once only`,
          );
        else unmatched.splice(i, 1);
      }
      if (running !== balanceCents)
        books.failures.push(
          `${account.number}: statement adds up to ${brl(running)}, balance ${brl(balanceCents)}`,
        );
      for (const f of unmatched)
        books.failures.push(
          `${account.number}: the PSP's ${f.kind} ${brl(f.cents)} (${f.ids[0]}) is not booked`,
        );
    }
  }
  const receipts = await checkReceipts(run, o, gateway, progress);
  const reconciliation = await checkReconciliation(run, o, gateway, progress);
  const blocked: InvariantResult = {
    name: 'no money leaves that a dispute blocks (available <= balance - blocked; no refund under dispute)',
    checked: run.log.disputes.recorded,
    failures: run.log.disputes.breaches,
  };
  return [agreement, books, receipts, reconciliation, notAllowedReturned(states), blocked];
}

/** What the bank leg makes the worker log on purpose: an error line about one of its second payments. */
const PROVOKED_ERRORS = [
  'held for return to the payer',
  'an unapplied receipt could not be returned: read again until the MED window ends',
];

/** The worker's error lines less those the bank leg provoked on purpose (counted as warnings). */
export function withoutProvokedErrors<T extends { errors: string[]; warnings: number }>(
  log: T,
  run: BankRun,
): T {
  const ids = run.log.duplicates.map((d) => d.endToEndId);
  const provoked = (line: string) =>
    PROVOKED_ERRORS.some((m) => line.includes(m)) && ids.some((id) => line.includes(id));
  const errors = log.errors.filter((line) => !provoked(line));
  return { ...log, errors, warnings: log.warnings + (log.errors.length - errors.length) };
}

/**
 * Every payment the payer rules refuse goes back whole: REFUNDED, PAYER_NOT_ALLOWED, never
 * confirmed (`paidBy.allowed` false), and the PSP devolved at least its amount; every payment from
 * the declared payer is allowed.
 */
function notAllowedReturned(states: TxState[]): InvariantResult {
  const paid = states.filter((s) => s.pix && ['PAID', 'REFUNDED'].includes(s.view.status as string));
  const failures: string[] = [];
  for (const s of paid) {
    const id = s.tx.transactionId;
    const allowed = s.view.paidBy?.allowed;
    if (allowed !== !s.tx.thirdParty)
      failures.push(`${id}: paidBy.allowed ${allowed}, third party ${!!s.tx.thirdParty}`);
    if (!s.tx.thirdParty) continue;
    const pix = present(s.pix, `the PSP's Pix of ${id}`);
    const devolved = pix.devolucoes
      .filter((d) => d.status === 'DEVOLVIDO')
      .reduce((t, d) => t + cents(d.valor), 0);
    if (devolved < cents(pix.valor))
      failures.push(`${id}: not allowed, ${brl(devolved)} of ${pix.valor} returned`);
    if (s.view.status !== 'REFUNDED' || s.view.reason !== 'PAYER_NOT_ALLOWED')
      failures.push(`${id}: not allowed, ended ${s.view.status} ${s.view.reason ?? ''}`);
  }
  return { name: 'every not-allowed payment is returned in full', checked: paid.length, failures };
}

/** The bank leg's figures for the report. */
export function bankSummary(log: BankLog): string[] {
  const ops = [...log.ops].sort((a, b) => a[0].localeCompare(b[0]));
  const outages = log.outages.map((x) => `${Math.round((x.to - x.from) / 1000)} s`).join(', ');
  return [
    `Real-partner leg: ${log.transactions.length} Cash-Ins at the PSP (${ops
      .map(([name, s]) => `${name} ${s.ok}${s.failed ? `/${s.failed} failed` : ''}`)
      .join(', ')})`,
    `  PSP outages: ${outages || 'none'}; listing of received Pix down ${
      log.listingOutage ? `${Math.round((log.listingOutage.to - log.listingOutage.from) / 1000)} s` : '-'
    }; ${log.duplicates.length} second payments returned (${
      log.duplicates.filter((d) => d.refused && d.settled).length
    } refused then settled); ${log.refusedCharges} charges refused while it was down; ` +
      `${log.callbacks} callbacks posted, lost: ${log.lost.payments} payments, ${log.lost.returns} MED returns, ` +
      `${log.lost.devolutions} devolutions`,
    `  MED disputes: ${log.disputes.opened} infractions opened at the PSP, ${log.disputes.recorded} seen open by the client in time`,
  ];
}
