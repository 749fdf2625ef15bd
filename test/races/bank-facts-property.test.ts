/**
 * Bank facts in any order (property): against the fake API Pix PSP, random interleavings of the
 * client's refund, bank returns (MED, whole or part), our devolution settling or refused, archive
 * runs, PSP outages, lost callbacks (payment, return, devolution), the expiry of a charge paid in
 * time with no callback, the re-reads of paid Cash-Ins, the return of a second payment (an
 * unapplied receipt) refused then settled, the day's reconciliation while the partner can or
 * cannot list the day, and the payment made by the declared payer or by a third party under
 * DECLARED_PAYER (held at once and returned, docs/contract.md, Who paid). Whatever the order, once
 * the PSP is up and the network has settled what it holds, the client's books are the PSP's, entry
 * by entry and centavo by centavo, the suspense account holds exactly the second payment's
 * devolutions the PSP did not make, nothing else is held, and every invariant of
 * test/support/invariants.ts holds for the rows still hot. MED disputes too:
 * opened (whole or part, their notice read now or only by a later sweep), defended and closed
 * (accepted with the bank's return, rejected, cancelled); after every step the balance's `blocked`
 * is exactly the open dispute's hold, available never exceeds balance minus it, and a refund under
 * an open dispute is refused.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reconcileDay } from '../../src/cron/reconcile-day';
import { brtDate } from '../../src/domain/time';
import { bcbPartner } from '../../src/partners/port-registry';
import { accountOf, fullStatement } from '../support/account';
import { createCashIn, getCashIn, waitFor } from '../support/cash-in';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { Integrator } from '../support/harness';
import { quiesce } from '../support/invariants';
import { suspenseEntries } from '../support/ledger-reads';
import { setCashInExpiry } from '../support/ledger-writes';
import { callback, newE2e, psp, sweepInfractions } from '../support/partner-psp';
import { archiveNow, expectPspBooks, runTasksNow, tasksOf, transactional } from '../support/psp-books';
import { unappliedOf } from '../support/unapplied';
import { OUTCOME_MS } from '../support/wait';

type Step =
  | { kind: 'refund' }
  | { kind: 'med'; part: boolean; lost: boolean }
  | { kind: 'settle'; ok: boolean; lost: boolean }
  | { kind: 'archive' }
  | { kind: 'outage'; on: boolean }
  | { kind: 'expire' }
  | { kind: 'recheck' }
  | { kind: 'dup-return'; ok: boolean; lost: boolean }
  | { kind: 'recon'; listable: boolean }
  | { kind: 'tick' }
  | { kind: 'dispute'; part: boolean; lost: boolean }
  | { kind: 'defend' }
  | { kind: 'decide'; status: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI'; lost: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'refund' }),
  fc.record({ kind: fc.constant('med' as const), part: fc.boolean(), lost: fc.boolean() }),
  fc.record({ kind: fc.constant('settle' as const), ok: fc.boolean(), lost: fc.boolean() }),
  fc.constant<Step>({ kind: 'archive' }),
  fc.record({ kind: fc.constant('outage' as const), on: fc.boolean() }),
  fc.constant<Step>({ kind: 'expire' }),
  fc.constant<Step>({ kind: 'recheck' }),
  fc.record({ kind: fc.constant('dup-return' as const), ok: fc.boolean(), lost: fc.boolean() }),
  fc.record({ kind: fc.constant('recon' as const), listable: fc.boolean() }),
  fc.constant<Step>({ kind: 'tick' }),
  fc.record({ kind: fc.constant('dispute' as const), part: fc.boolean(), lost: fc.boolean() }),
  fc.constant<Step>({ kind: 'defend' }),
  fc.record({
    kind: fc.constant('decide' as const),
    status: fc.constantFrom('ACEITA' as const, 'REJEITADA' as const, 'CANCELADA_EFI' as const),
    lost: fc.boolean(),
  }),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface World {
  api: Integrator;
  /** Paid by someone else than the declared payer: not allowed, returned automatically. */
  thirdParty: boolean;
  /** The paid Cash-In the steps act on, and its payment at the PSP. */
  code: string;
  e2e: string;
  txid: string;
  amountCents: number;
  /** A charge paid inside its window whose callback never came, its window over. */
  quiet: { code: string; txid: string; e2e: string };
  devolutions: string[];
  meds: number;
  /** The infraction open at the PSP against the payment, if any. */
  infraction?: string;
  /** A second payment of the charge: an unapplied receipt, returned to its payer. */
  dup: string;
}

const DECLARED = { name: 'Maria da Silva', document: '12345678909' };

async function world(refuseFirst: boolean, thirdParty: boolean): Promise<World> {
  const api = await Integrator.create({ partners: [FAKE_PSP_ISPB], payerPolicy: 'DECLARED_PAYER' });
  const created = await createCashIn(api, { amount: 90, payer: DECLARED });
  const e2e = newE2e();
  const pagador = thirdParty ? { nome: 'Joao Terceiro', cpf: '11144477735' } : undefined;
  await psp('pay', { txid: created.transactionId, endToEndId: e2e, ...(pagador && { pagador }) });
  expect((await callback(e2e))[0]?.outcomes).toEqual(['paid']);
  const dup = newE2e();
  await psp('pay', { txid: created.transactionId, endToEndId: dup, valor: '90.00' });
  expect((await callback(dup))[0]?.outcomes).toEqual(['duplicate']);
  if (refuseFirst) {
    // The network refuses the receipt's devolution at once (its callback lost).
    const [asked] = (
      await waitFor(
        () => psp(`pix/${dup}`),
        (p) => (p?.devolucoes ?? []).length > 0,
      )
    ).devolucoes as { id: string }[];
    await psp('devolution', { endToEndId: dup, id: asked?.id, ok: false });
  }
  const quiet = await createCashIn(api, { amount: 7.5, expirationInMinutes: 10, payer: DECLARED });
  const windowEnd = Date.now() - 6 * 60_000;
  const quietE2e = newE2e();
  await psp('pay', {
    txid: quiet.transactionId,
    endToEndId: quietE2e,
    horario: new Date(windowEnd - 30_000).toISOString(),
  });
  await setCashInExpiry(api.client.clientId, { transactionId: quiet.transactionId }, windowEnd);
  return {
    api,
    thirdParty,
    code: created.internalCode,
    e2e,
    txid: created.transactionId,
    amountCents: 9000,
    quiet: { code: quiet.internalCode, txid: quiet.transactionId, e2e: quietE2e },
    devolutions: [],
    meds: 0,
    dup,
  };
}

/** The PSP is down for every call about these payments and charges. */
async function outage(w: World, on: boolean): Promise<void> {
  for (const match of [w.e2e, w.txid, w.quiet.e2e, w.quiet.txid, w.dup])
    await psp('outage', { match, ms: on ? 120_000 : 0 });
}

async function perform(w: World, s: Step): Promise<void> {
  switch (s.kind) {
    case 'refund': {
      const res = await w.api.signedPost(`/cash-in/${w.code}/refund`, { reason: 'MERCHANT_ERROR' });
      expect([202, 422], await res.clone().text()).toContain(res.status);
      if (res.status === 202) w.devolutions.push(((await res.json()) as { endToEndId: string }).endToEndId);
      return;
    }
    case 'med': {
      const cents = s.part ? 3000 : w.amountCents;
      await psp('return', {
        endToEndId: w.e2e,
        id: `P${String(++w.meds).padStart(10, '0')}${w.txid.slice(-8)}`,
        valor: (cents / 100).toFixed(2),
        natureza: 'MED_FRAUDE',
      });
      if (!s.lost) await callbackOrDown(w.e2e);
      return;
    }
    case 'settle': {
      const pix = await psp(`pix/${w.e2e}`);
      const pending = (pix.devolucoes as { id: string; status: string }[]).find(
        (d) => w.devolutions.includes(d.id) && d.status === 'EM_PROCESSAMENTO',
      );
      if (!pending) return;
      await psp('devolution', { endToEndId: w.e2e, id: pending.id, ok: s.ok });
      if (!s.lost) await callbackOrDown(w.e2e);
      return;
    }
    case 'archive':
      await archiveNow(w.api);
      return;
    case 'outage':
      await outage(w, s.on);
      return;
    case 'expire':
      await runTasksNow(w.api, 'expire-cash-in');
      await sleep(200);
      return;
    case 'recheck':
      await runTasksNow(w.api, 'recheck-returns');
      await sleep(200);
      return;
    case 'dup-return': {
      // The network refuses the receipt's devolution, or settles it (a refused one too: NAO_REALIZADO
      // first, DEVOLVIDO later, the same id). A settled one stays settled.
      const [d] = (await psp(`pix/${w.dup}`)).devolucoes as { id: string; status: string }[];
      if (!d || d.status === 'DEVOLVIDO') return;
      await psp('devolution', { endToEndId: w.dup, id: d.id, ok: s.ok });
      if (!s.lost) await callbackOrDown(w.dup);
      return;
    }
    case 'recon':
      // The day's reconciliation, the partner able to list the day or not (every attempt refused).
      if (!s.listable)
        await psp('fail-next', {
          match: `inicio=${today()}`,
          status: 503,
          name: 'ServicoIndisponivel',
          times: 6,
        });
      await reconcile();
      return;
    case 'tick':
      await sleep(600);
      return;
    case 'dispute': {
      if (w.infraction) return;
      const cents = s.part ? 2500 : w.amountCents;
      w.infraction = (await psp('infraction', { endToEndId: w.e2e, valor: (cents / 100).toFixed(2) }))
        .idInfracao as string;
      if (!s.lost) await sweepInfractions();
      return;
    }
    case 'defend': {
      const res = await w.api.signedPost(`/cash-in/${w.code}/dispute/defense`, { text: 'Genuine deposit' });
      expect([202, 422], await res.clone().text()).toContain(res.status);
      return;
    }
    case 'decide':
      if (w.infraction) await decide(w, s.status, s.lost);
      return;
  }
}

/** The payer's bank decides the open infraction; ACEITA takes back what the PSP still holds of it. */
async function decide(w: World, status: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI', lost: boolean) {
  const infraction = await psp('infraction-decide', { idInfracao: w.infraction, status });
  w.infraction = undefined;
  if (status === 'ACEITA') {
    const pix = await psp(`pix/${w.e2e}`);
    const out = (pix.devolucoes as { valor: string; status: string }[])
      .filter((d) => d.status !== 'NAO_REALIZADO')
      .reduce((sum, d) => sum + Math.round(Number(d.valor) * 100), 0);
    const cents = Math.min(Math.round(Number(infraction.valor) * 100), w.amountCents - out);
    if (cents > 0) {
      await psp('return', {
        endToEndId: w.e2e,
        id: `M${String(++w.meds).padStart(10, '0')}${w.txid.slice(-8)}`,
        valor: (cents / 100).toFixed(2),
        natureza: 'MED_FRAUDE',
      });
      if (!lost) await callbackOrDown(w.e2e);
    }
  }
  if (!lost) await sweepInfractions();
}

/** Whether a devolution of the payment is in our books from `at` on (read across the archive). */
async function returnedSince(w: World, at: string): Promise<boolean> {
  const statement = await fullStatement(w.api, accountOf(w.api, 'TRANSACTIONAL').number);
  return statement.some(
    (e) =>
      e.type === 'PIX_REFUND_OUT' && e.originalEndToEndId === w.e2e && Date.parse(e.date) >= Date.parse(at),
  );
}

/** After every step: the balance's `blocked` is the dispute's hold, and no money it covers is available. */
async function checkBlock(w: World): Promise<void> {
  const view = await getCashIn(w.api, w.code);
  const account = await transactional(w.api);
  // ACCEPTED and still PAID holds until the bank's return is booked; a partial return leaves it PAID.
  const holding =
    view.dispute !== undefined &&
    (['OPEN', 'DEFENDED'].includes(view.dispute.status) ||
      (view.dispute.status === 'ACCEPTED' &&
        view.status === 'PAID' &&
        !(await returnedSince(w, view.dispute.closedAt!))));
  const blocked = holding ? view.dispute!.blockedAmount : 0;
  expect(account.blocked, JSON.stringify(view.dispute)).toBe(blocked);
  expect(Math.round((account.available ?? 0) * 100)).toBeLessThanOrEqual(
    Math.round((account.balance - blocked) * 100),
  );
  if (holding && ['OPEN', 'DEFENDED'].includes(view.dispute!.status)) {
    const refund = await w.api.signedPost(`/cash-in/${w.code}/refund`, { reason: 'MERCHANT_ERROR' });
    expect(refund.status).toBe(422);
  }
}

const today = () => brtDate(Date.now());

async function reconcile(): Promise<void> {
  const partner = bcbPartner(env, FAKE_PSP_ISPB);
  if (!partner) throw new Error('the fake partner is not declared');
  await reconcileDay(env, partner, today());
}

/** What the receipt's return must show once everything settled: the PSP's word on its devolution. */
async function expectReceiptAsPsp(w: World): Promise<void> {
  const devolutions = (await psp(`pix/${w.dup}`)).devolucoes as { status: string }[];
  expect(devolutions.length, 'one devolution asked, never re-sent').toBeLessThanOrEqual(1);
  const returned = devolutions.some((d) => d.status === 'DEVOLVIDO');
  const receipt = await waitFor(
    () => unappliedOf(w.dup),
    (r) => r?.return.status === (returned ? 'RETURNED' : 'FAILED'),
  );
  expect(receipt?.return.status, JSON.stringify(devolutions)).toBe(returned ? 'RETURNED' : 'FAILED');
  const suspense = await suspenseEntries(w.api.client.clientId);
  const row = {
    held: suspense.reduce((s, e) => s + (e.direction === 'CREDIT' ? e.amount : -e.amount), 0),
    debits: suspense.filter((e) => e.direction === 'DEBIT').length,
  };
  expect(row?.held, 'the suspense holds what the PSP did not return').toBe(returned ? 0 : 9000);
  expect(row?.debits).toBe(returned ? 1 : 0);
}

/** A callback the gateway may answer 503 (it cannot read the PSP back now): the PSP's retry is lost. */
async function callbackOrDown(e2e: string): Promise<void> {
  try {
    await callback(e2e);
  } catch {
    // 503 during an outage: this callback is lost like any other.
  }
}

/**
 * The PSP up, the network done with what it holds, the gateway caught up with both. `lateSettle`:
 * the network settles the receipt's refused devolution after all, and no callback tells of it.
 */
async function settleAll(w: World, lateSettle: boolean): Promise<void> {
  await outage(w, false);
  // The payer's bank decides what is still open, and the sweep reads every notice it missed.
  if (w.infraction) await decide(w, 'REJEITADA', false);
  await sweepInfractions();
  // The receipt's return asked (at once, or after an outage at its next try); one in flight is settled.
  await runTasksNow(w.api, 'return-unapplied');
  const [asked] = (
    await waitFor(
      () => psp(`pix/${w.dup}`),
      (p) => (p?.devolucoes ?? []).length > 0,
    )
  ).devolucoes as { id: string; status: string }[];
  if (asked?.status === 'EM_PROCESSAMENTO' || (lateSettle && asked?.status === 'NAO_REALIZADO'))
    await psp('devolution', { endToEndId: w.dup, id: asked.id, ok: true });
  // Our devolutions reach the PSP now or on a later poll: each is settled as it arrives, until
  // nothing is in flight (however long a busy machine takes to send them).
  for (const deadline = Date.now() + OUTCOME_MS; ; ) {
    const pix = await psp(`pix/${w.e2e}`);
    for (const d of pix.devolucoes as { id: string; status: string }[])
      if (d.status === 'EM_PROCESSAMENTO') await psp('devolution', { endToEndId: w.e2e, id: d.id, ok: true });
    const quiet = await quiesce(w.api, 1_000).then(
      () => true,
      () => false,
    );
    if (quiet) break;
    if (Date.now() > deadline) await quiesce(w.api, 0); // fails, naming what is still in flight
  }
  await runTasksNow(w.api, 'expire-cash-in');
  await runTasksNow(w.api, 'recheck-returns');
  await runTasksNow(w.api, 'return-unapplied');
  // The day's reconciliation, the partner listing it again: it heals what the callbacks lost.
  await reconcile();
  await waitFor(
    async () => [...(await tasksOf(w.api, 'expire-cash-in')), ...(await tasksOf(w.api, 'recheck-returns'))],
    (t) => t.every((x) => x.due_at > Date.now()),
  );
  await quiesce(w.api);
}

describe('bank facts in any order', () => {
  it('leave the books equal to the PSP’s, centavo by centavo', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 3, maxLength: 9 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        async (steps, refuseFirst, lateSettle, thirdParty) => {
          const w = await world(refuseFirst, thirdParty);
          try {
            for (const s of steps) {
              await perform(w, s);
              await checkBlock(w);
            }
            await settleAll(w, lateSettle);
            // The quietly paid charge was never expired blind: paid at the PSP, PAID here.
            expect((await getCashIn(w.api, w.quiet.code)).status).toBe('PAID');
            const view = await getCashIn(w.api, w.code);
            const pix = await psp(`pix/${w.e2e}`);
            const made = (pix.devolucoes as { status: string; valor: string }[]).filter(
              (d) => d.status === 'DEVOLVIDO',
            );
            // REFUNDED once the whole Cash-In went back; a bank return of less leaves it PAID.
            const devolved = made.reduce((s, d) => s + Math.round(Number(d.valor) * 100), 0) >= w.amountCents;
            expect(view.status, JSON.stringify(pix.devolucoes)).toBe(devolved ? 'REFUNDED' : 'PAID');
            expect(view.paidBy?.allowed).toBe(!thirdParty);
            // A payment not allowed goes back whole: our devolution, or the bank's returns, reach its amount.
            if (thirdParty && !view.refundFailure)
              expect(made.reduce((s, d) => s + Math.round(Number(d.valor) * 100), 0)).toBeGreaterThanOrEqual(
                w.amountCents,
              );
            await expectPspBooks(w.api, [w.e2e, w.quiet.e2e]);
            await expectReceiptAsPsp(w);
            expect((await transactional(w.api)).blocked).toBe(0);
          } finally {
            await outage(w, false);
          }
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  }, 900_000);
});
