/**
 * The daily reconciliation (docs/operating.md, Daily reconciliation) against the fake API Pix PSP
 * and its Efí payout API: a whole America/Sao_Paulo day of the partner's records (received Pix with
 * devolutions, every page; payouts; balance) against the ledgers. Each test lives on its own past
 * day (Date faked in the Worker, `horario` given to the PSP), so the PSP's day holds only its items
 * whatever other files do meanwhile.
 */

import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { configProblems } from '../../src/config';
import { brlFromReais } from '../../src/console/format';
import { returnPartnerHeld } from '../../src/cron/partner-unapplied';
import { RECON_PAGE_SIZE, reconcileDay } from '../../src/cron/reconcile-day';
import { RECON_DAYS_PER_RUN, reconcileClosedDays } from '../../src/cron/reconciliation-cron';
import type { ReconciliationReport } from '../../src/domain/reconciliation-matching';
import { brtDate } from '../../src/domain/time';
import { bcbPartner } from '../../src/partners/port-registry';
import { signWebhook } from '../../src/webhooks/signature';
import { createCashIn, getCashIn, waitFor } from '../support/cash-in';
import { createCashOut, settled } from '../support/cash-out';
import { FAKE_PSP_ISPB, firstPartnerOnly } from '../support/fake-psp-env';
import { admin, Integrator, issueToken } from '../support/harness';
import { assertBooks } from '../support/invariants';
import { ledgerStub } from '../support/ledger';
import { callback, newE2e, onboard, psp, statementOf } from '../support/partner-psp';
import { consoleBooks, unappliedOf, waitForDevolution, waitForReturn } from '../support/unapplied';
import { newSink, received, waitUntil } from '../support/webhooks';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
  await psp('balance', { saldo: null });
});

/** Clients that lived on a past day: back in the present, their objects' work must not all fall due at once. */
const timeTravellers: string[] = [];
/** The cron's run over the first test partner alone (the second, offering Pix Automático, has no days here). */
const onePartner = firstPartnerOnly(env);
afterEach(async () => {
  for (const id of timeTravellers.splice(0))
    await runInDurableObject(ledgerStub(id), async (_i, state) => {
      state.storage.sql.exec('DELETE FROM tasks');
      await state.storage.deleteAlarm();
    });
  vi.useRealTimers();
});

async function onboardOnDay(): Promise<Integrator> {
  const api = await onboard();
  timeTravellers.push(api.client.clientId);
  return api;
}

const partner = () => {
  const p = bcbPartner(env, FAKE_PSP_ISPB);
  if (!p) throw new Error('the fake partner is not declared');
  return p;
};

/**
 * Stops the client's re-reads of its paid Cash-Ins (`recheck-returns`), so a return the bank makes
 * next is one whose callback was lost and that no re-read has seen yet: the reconciliation alone
 * finds it. Left in place, a re-read falls due when the clock jumps to the next day and may book the
 * return first, racing the reconciliation (a CI run saw the devolution already booked).
 */
async function withoutRechecks(api: Integrator): Promise<void> {
  await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
    state.storage.sql.exec("DELETE FROM tasks WHERE kind = 'recheck-returns'");
  });
}

/** Nor does a charge's expiry read its payment back once the clock jumps: the reconciliation alone finds it. */
async function withoutExpiry(api: Integrator): Promise<void> {
  await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
    state.storage.sql.exec("DELETE FROM tasks WHERE kind = 'expire-cash-in'");
  });
}

/** Lives on `day` at 12:00 America/Sao_Paulo (the Worker's clock; the PSP is told each time). */
function liveOn(day: string): void {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(`${day}T12:00:00-03:00`), shouldAdvanceTime: true });
}
const nowIso = () => new Date().toISOString();

/** A Cash-In paid at the PSP now (the faked day); `announce`: the partner's callback comes. */
async function paid(api: Integrator, amount: number, announce = true) {
  const cashIn = await createCashIn(api, { amount });
  const e2e = newE2e();
  await psp('pay', { txid: cashIn.transactionId, endToEndId: e2e, horario: nowIso() });
  if (announce) expect((await callback(e2e))[0]?.outcomes).toEqual(['paid']);
  return { cashIn, e2e };
}

async function report(date: string): Promise<ReconciliationReport & { daysBehind: number }> {
  const res = await admin(`/admin/reconciliation?date=${date}&ispb=${FAKE_PSP_ISPB}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/**
 * A past America/Sao_Paulo day of its own for each test: recent (the health analyzer's windows stay
 * few when the clock comes back) and before today (other files' Pix are today's).
 */
const pastDay = (daysAgo: number) => brtDate(Date.now() - daysAgo * 86_400_000);

const cents = (brl: number) => Math.round(brl * 100);
const brl = (c: number) => (c / 100).toFixed(2);

/**
 * What our books already hold at the partner before a test's day (other tests' clients share this
 * file's storage), less what of it the bank took to pay out and has not settled (a Cash-Out asked,
 * a refund's or an unapplied return's devolution): the bank's balance carries the same money, so the
 * test's saldo starts from it.
 */
async function priorBalance(): Promise<number> {
  const { results } = await env.DB.prepare('SELECT id FROM clients').all<{ id: string }>();
  let total = 0;
  for (const { id } of results)
    total += await runInDurableObject(ledgerStub(id), (_i, state) =>
      Number(
        state.storage.sql
          .exec(
            `SELECT (SELECT coalesce(sum(balance), 0) FROM accounts WHERE ispb = ?1)
                  + (SELECT coalesce(sum(CASE direction WHEN 'CREDIT' THEN amount ELSE -amount END), 0)
                     FROM suspense_entries WHERE ispb = ?1)
                  - (SELECT coalesce(sum(amount), 0) FROM cash_outs
                     WHERE partner_ispb = ?1 AND stage IN ('SENDING', 'SENT'))
                  - (SELECT coalesce(sum(h.amount), 0) FROM holds h JOIN accounts a ON a.number = h.account_number
                     JOIN cash_ins c ON h.id = 'refund:' || c.transaction_id
                     WHERE a.ispb = ?1 AND c.end_to_end_id IS NOT NULL)
                  - (SELECT coalesce(sum(amount), 0) FROM unapplied_receipts WHERE ispb = ?1 AND stage = 'SENT') AS b`,
            FAKE_PSP_ISPB,
          )
          .one().b,
      ),
    );
  const held = await env.DB.prepare(
    `SELECT coalesce(sum(CASE stage WHEN 'SENT' THEN 0 ELSE amount END), 0) AS h FROM unapplied_receipts
     WHERE held_by = 'partner' AND ispb = ? AND stage <> 'RETURNED'`,
  )
    .bind(FAKE_PSP_ISPB)
    .first<{ h: number }>();
  return total + (held?.h ?? 0);
}

/** The same integrator with a fresh access token (the clock moved past the old one's hour). */
async function reauth(api: Integrator): Promise<Integrator> {
  const Ctor = Integrator as unknown as new (client: unknown, token: string) => Integrator;
  return new Ctor(api.client, await issueToken(api.client));
}

describe('daily reconciliation', () => {
  it('a day with one break of each kind: exactly those breaks, the healable ones healed, the balance off by exactly them', async () => {
    const day = pastDay(2);
    liveOn(day);
    const prior = await priorBalance();
    let api = await onboardOnDay();
    await paid(api, 100); // matched
    const b = await paid(api, 50, false); // the callback never comes: MISSING_HERE, healed
    const c = await paid(api, 30); // the bank returns it, no callback: devolution MISSING_HERE, healed
    await withoutRechecks(api);
    await psp('return', { endToEndId: c.e2e, id: 'MED0001', valor: '30.00', natureza: 'MED_FRAUDE' });
    const e = await paid(api, 20); // the bank's record says 25.00: AMOUNT_DIFFERS
    await psp('alter-pix', { endToEndId: e.e2e, valor: '25.00' });
    const f = await paid(api, 10); // the bank has no record of it: MISSING_THERE
    await psp('alter-pix', { endToEndId: f.e2e, forget: true });
    const g = await createCashOut(api, { amount: 40 }); // made here, not made there: STATUS_DIFFERS
    await waitFor(
      () => psp(`sent/${g.transactionId}`),
      (s) => s !== null,
    );
    await psp('payout', { transactionId: g.transactionId, ok: true, at: nowIso() });
    expect((await settled(api, g.transactionId)).status).toBe('COMPLETED');
    await psp('alter-payout', { transactionId: g.transactionId, status: 'NAO_REALIZADO' });
    // A payout the bank made that we never asked for: MISSING_HERE, not healable.
    const stray = await psp('sent', {
      idEnvio: crypto.randomUUID().replace(/-/g, ''),
      valor: '7.00',
      at: nowIso(),
    });
    // The bank's balance by its own records: 100 + 50 + 30 - 30 + 25 - 7 = 168.00.
    await psp('balance', { saldo: brl(prior + 16800) });

    vi.setSystemTime(Date.parse(`${day}T12:00:00-03:00`) + 14 * 3_600_000); // 02:00 the next day
    await reconcileClosedDays(onePartner, Date.now());
    const first = await report(day);
    api = await reauth(api);
    expect(first.status).toBe('BREAKS');
    const breaks = first.breaks.map((x) => [x.kind, x.subject, x.endToEndId ?? x.transactionId ?? null]);
    expect(breaks).toEqual(
      expect.arrayContaining([
        ['AMOUNT_DIFFERS', 'RECEIVED', e.e2e],
        ['MISSING_THERE', 'RECEIVED', f.e2e],
        ['STATUS_DIFFERS', 'PAYOUT', expect.any(String)],
        ['MISSING_HERE', 'PAYOUT', stray.endToEndId],
        ['AMOUNT_DIFFERS', 'BALANCE', null],
      ]),
    );
    expect(first.breaks).toHaveLength(5);
    expect(first.breaks.find((x) => x.subject === 'PAYOUT' && x.kind === 'STATUS_DIFFERS')).toMatchObject({
      transactionId: g.transactionId,
      ours: { amount: 40, status: 'SETTLED' },
      theirs: { amount: 40, status: 'FAILED' },
    });
    expect(first.healed.map((h) => [h.subject, h.endToEndId])).toEqual([
      ['RECEIVED', b.e2e],
      ['DEVOLUTION', c.e2e],
    ]);
    // Healed through the normal path: B paid, C returned by the bank.
    expect((await getCashIn(api, b.cashIn.internalCode)).status).toBe('PAID');
    expect((await getCashIn(api, c.cashIn.internalCode)).status).toBe('REFUNDED');
    // Our balance differs from the bank's by exactly the breaks left: (25-20) - 10 + 40 - 7 = 28.
    const balance = first.breaks.find((x) => x.subject === 'BALANCE');
    expect(cents(balance?.ours?.amount ?? 0)).toBe(prior + 14000);
    expect(cents(balance?.theirs?.amount ?? 0)).toBe(prior + 16800);
    const itemDelta = first.breaks
      .filter((x) => x.subject !== 'BALANCE')
      .reduce((sum, x) => {
        const signed = x.subject === 'PAYOUT' ? -1 : 1; // a payout takes money out
        const theirs = x.theirs?.status === 'SETTLED' ? cents(x.theirs.amount) : 0;
        const ours = x.ours?.status === 'SETTLED' ? cents(x.ours.amount) : 0;
        return sum + signed * (theirs - ours);
      }, 0);
    expect(itemDelta).toBe(cents(168) - cents(140));
    await assertBooks(api);
    const page = await consoleBooks();
    expect(page).toContain(day);
    expect(page).toContain(f.e2e);
    expect(page).toContain('MISSING_THERE');

    // Re-running the day is safe: nothing is booked twice, the same breaks, nothing left to heal.
    const statement = await statementOf(api);
    const again = await reconcileDay(env, partner(), day);
    expect(again.breaks).toEqual(first.breaks);
    // Nothing healed by this run; the report keeps what the first run healed.
    expect(again.counts.healed).toBe(0);
    expect(again.healed).toEqual(first.healed);
    expect(await statementOf(api)).toEqual(statement);
  });

  it('a day whose only differences the bank proves: healed, MATCHED, and the books equal the bank centavo by centavo', async () => {
    const day = pastDay(3);
    liveOn(day);
    const prior = await priorBalance();
    let api = await onboardOnDay();
    const a = await paid(api, 12.34);
    const b = await paid(api, 56.78, false);
    await withoutRechecks(api);
    await psp('return', { endToEndId: a.e2e, id: 'MED0002', valor: '2.34', natureza: 'MED_OPERACIONAL' });
    // A second payment of B's charge, never announced: healed as an unapplied receipt.
    const dup = newE2e();
    await psp('pay', { txid: b.cashIn.transactionId, endToEndId: dup, horario: nowIso() });
    // The bank by its own records: 12.34 + 56.78 + 56.78 - 2.34.
    await psp('balance', { saldo: brl(prior + 12356) });
    vi.setSystemTime(Date.parse(`${day}T12:00:00-03:00`) + 13 * 3_600_000);
    const result = await reconcileDay(env, partner(), day);
    api = await reauth(api);
    expect(result.breaks).toEqual([]);
    expect(result.status).toBe('MATCHED');
    expect(result.healed.map((h) => [h.subject, h.endToEndId, h.outcome])).toEqual([
      ['RECEIVED', b.e2e, ['paid']],
      ['RECEIVED', dup, ['duplicate']],
      ['DEVOLUTION', a.e2e, ['already-paid', 'returned']],
    ]);
    // Our books against the bank's, centavo by centavo: the client's entries and the suspense held.
    const entries = await statementOf(api);
    const net = entries.reduce((s, x) => s + (x.type.endsWith('_IN') ? 1 : -1) * cents(x.amount), 0);
    const [row] = await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) =>
      state.storage.sql
        .exec<{ held: number }>(
          "SELECT coalesce(sum(CASE direction WHEN 'CREDIT' THEN amount ELSE -amount END), 0) AS held FROM suspense_entries",
        )
        .toArray(),
    );
    expect(net + (row?.held ?? 0)).toBe(12356);
    await assertBooks(api);
  });

  it('a day with thousands of Pix: every page read, a bounded number of them, few item lookups', async () => {
    const day = pastDay(4);
    liveOn(day);
    const prior = await priorBalance();
    const api = await onboardOnDay();
    const count = 3_500;
    const start = Date.parse(`${day}T00:00:00-03:00`);
    const items = Array.from({ length: count }, (_, i) => ({
      endToEndId: `E60701190${day.replace(/-/g, '')}0000${String(i).padStart(11, '0')}`,
      valor: '1.00',
      horario: new Date(start + 1_000 + i * 20_000).toISOString(),
    }));
    await psp('receive-many', { items });
    // Our side: the same day already booked (written straight into the ledger as settlement would:
    // one PIX_IN entry each and the balance they add up to).
    await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
      const sql = state.storage.sql;
      const [account] = sql
        .exec<{ number: string }>(
          "SELECT number FROM accounts WHERE ispb = ? AND type = 'TRANSACTIONAL'",
          FAKE_PSP_ISPB,
        )
        .toArray();
      for (const [i, p] of items.entries())
        sql.exec(
          `INSERT INTO ledger_entries (id, account_number, type, type_raw, direction, amount, balance_after,
             end_to_end_id, ref, created_at) VALUES (?, ?, 'PIX_IN', 'PIX RECEBIDO', 'CREDIT', 100, ?, ?, ?, ?)`,
          `ENTBULK${String(i).padStart(17, '0')}`,
          account?.number,
          (i + 1) * 100,
          p.endToEndId,
          `cash-in:bulk${i}`,
          Date.parse(p.horario) + 500,
        );
      sql.exec('UPDATE accounts SET balance = ? WHERE number = ?', count * 100, account?.number);
    });
    await psp('balance', { saldo: brl(prior + count * 100) });
    vi.setSystemTime(start + 25 * 3_600_000);
    // Its cost is counted in pages and item lookups, not milliseconds (speed is npm run bench's).
    const result = await reconcileDay(env, partner(), day);
    expect(result.status).toBe('MATCHED');
    expect(result.counts).toMatchObject({
      receivedTheirs: count,
      receivedPages: Math.ceil(count / RECON_PAGE_SIZE),
    });
    // Item by item only where the sides differ: here the margins read around the day (other
    // tests' days booked near its midnight), never the day's thousands.
    expect(result.counts.lookups).toBeLessThan(10);
    expect(result.counts.matched).toBeGreaterThanOrEqual(count);
    // A day beyond a run's pages is not half-read: it stays PENDING, to be read again.
    const bounded = await reconcileDay(env, partner(), day, 3);
    expect(bounded).toMatchObject({ status: 'PENDING', pendingReason: 'received Pix: more than 3 pages' });
    expect(bounded.breaks).toEqual([]);
  });

  it('a partner down leaves the day PENDING, tried again; an unchecked day is 404; a bad date is 400', async () => {
    const day = pastDay(5);
    liveOn(day);
    await psp('fail-next', { match: `inicio=${day}`, status: 503, name: 'ServicoIndisponivel', times: 6 });
    vi.setSystemTime(Date.parse(`${day}T12:00:00-03:00`) + 14 * 3_600_000);
    const pending = await reconcileDay(env, partner(), day);
    expect(pending.status).toBe('PENDING');
    expect(pending.pendingReason).toContain('received Pix');
    expect((await report(day)).status).toBe('PENDING');
    await psp('balance', { saldo: brl(await priorBalance()) });
    const later = await reconcileDay(env, partner(), day);
    expect(later.status).not.toBe('PENDING');

    expect((await admin(`/admin/reconciliation?date=2020-01-01&ispb=${FAKE_PSP_ISPB}`)).status).toBe(404);
    for (const [query, field] of [
      ['date=2025-02-30', 'date'],
      ['date=yesterday', 'date'],
      ['', 'date'],
      [`date=${day}&ispb=12`, 'ispb'],
    ] as const) {
      const res = await admin(`/admin/reconciliation?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(((await res.json()) as { errors: object }).errors)).toContain(field);
    }
  });

  it('refuses to start with an alert URL it could not sign for, or plain http in production', () => {
    const base = { ENVIRONMENT: 'staging', PIX_LOCATION_HOST: '' };
    const secret = `whsec_${btoa('k'.repeat(32))}`;
    expect(configProblems({ ...base, OPERATOR_ALERT_URL: 'https://ops.example/alerts' })).toEqual([
      'OPERATOR_ALERT_SECRET (whsec_ + base64) is required with OPERATOR_ALERT_URL',
    ]);
    expect(
      configProblems({ ...base, OPERATOR_ALERT_URL: 'not a url', OPERATOR_ALERT_SECRET: secret }),
    ).toHaveLength(1);
    expect(
      configProblems({
        ENVIRONMENT: 'production',
        PIX_LOCATION_HOST: 'pix.example.com',
        OPERATOR_ALERT_URL: 'http://ops.example/alerts',
        OPERATOR_ALERT_SECRET: secret,
      }),
    ).toEqual(['OPERATOR_ALERT_URL must be https in production']);
    expect(
      configProblems({ ...base, OPERATOR_ALERT_URL: 'https://ops.example/a', OPERATOR_ALERT_SECRET: secret }),
    ).toEqual([]);
  });

  it('a day with breaks alerts OPERATOR_ALERT_URL, signed like a client webhook, once', async () => {
    const day = pastDay(6);
    liveOn(day);
    const api = await onboardOnDay();
    const f = await paid(api, 9);
    await psp('alter-pix', { endToEndId: f.e2e, forget: true });
    await psp('balance', { saldo: brl(await priorBalance()) });
    const sink = newSink();
    const secret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
    const alerting = Object.assign(Object.create(onePartner), {
      OPERATOR_ALERT_URL: sink.url,
      OPERATOR_ALERT_SECRET: secret,
    });
    vi.setSystemTime(Date.parse(`${day}T12:00:00-03:00`) + 14 * 3_600_000);
    await reconcileClosedDays(alerting, Date.now());
    const [alert] = await waitUntil(
      () => received(sink),
      (r) => r.length > 0,
    );
    expect(alert?.headers['webhook-id']).toBe(`recon_${day}_${FAKE_PSP_ISPB}`);
    const expected = await signWebhook(
      secret,
      alert?.headers['webhook-id'] as string,
      Number(alert?.headers['webhook-timestamp']),
      alert?.body as string,
    );
    expect(alert?.headers['webhook-signature']).toBe(expected);
    const body = JSON.parse(alert?.body as string);
    expect(body).toMatchObject({ eventType: 'RECONCILIATION_BREAKS', data: { date: day, status: 'BREAKS' } });
    // The next cron runs neither re-check the final day nor alert again.
    await reconcileClosedDays(alerting, Date.now() + 60_000);
    expect(await received(sink)).toHaveLength(1);
  });

  it('days left PENDING or never run are retried oldest first, a few a run, until final; daysBehind counts them', async () => {
    const first = pastDay(12);
    liveOn(first);
    const api = await onboardOnDay();
    const a = await paid(api, 3.21, false); // its callback never comes: only this day's reconciliation books it
    await withoutExpiry(api);
    // The partner cannot list the day when it closes (every attempt of the run).
    await psp('fail-next', { match: `inicio=${first}`, status: 503, name: 'ServicoIndisponivel', times: 6 });
    const noon = Date.parse(`${first}T12:00:00-03:00`);
    vi.setSystemTime(noon + 14 * 3_600_000);
    await reconcileClosedDays(onePartner, Date.now());
    expect(await report(first)).toMatchObject({ status: 'PENDING', daysBehind: 1 });
    // The cron then does not run for four days: the first day is still owed, and the four after it.
    vi.setSystemTime(noon + 4 * 86_400_000 + 14 * 3_600_000);
    const days = [0, 1, 2, 3, 4].map((n) => brtDate(noon + n * 86_400_000));
    expect((await report(first)).daysBehind).toBe(5);
    expect(await consoleBooks()).toContain('5 day(s) behind');
    // Oldest first, at most RECON_DAYS_PER_RUN days a run.
    await reconcileClosedDays(onePartner, Date.now());
    const checked = days.slice(0, RECON_DAYS_PER_RUN);
    for (const day of checked) expect((await report(day)).status, day).not.toBe('PENDING');
    for (const day of days.slice(RECON_DAYS_PER_RUN))
      expect((await admin(`/admin/reconciliation?date=${day}&ispb=${FAKE_PSP_ISPB}`)).status, day).toBe(404);
    const healed = await report(first);
    expect(healed.healed.map((h) => [h.subject, h.endToEndId, h.outcome])).toEqual([
      ['RECEIVED', a.e2e, ['paid']],
    ]);
    expect(healed.daysBehind).toBe(days.length - RECON_DAYS_PER_RUN);
    expect((await getCashIn(await reauth(api), a.cashIn.internalCode)).status).toBe('PAID');
    await reconcileClosedDays(onePartner, Date.now() + 60_000);
    for (const day of days) expect((await report(day)).status, day).not.toBe('PENDING');
    expect((await report(first)).daysBehind).toBe(0);
    expect(await consoleBooks()).toContain('0 day(s) behind');
  });

  it('a rerun of a day keeps every heal made before it', async () => {
    const day = pastDay(14);
    liveOn(day);
    const api = await onboardOnDay();
    const b = await paid(api, 8.88, false); // healed by the first run
    const f = await paid(api, 1.5); // the partner forgets it; reading it back fails once: the run ends PENDING
    await psp('alter-pix', { endToEndId: f.e2e, forget: true });
    await psp('outage', { match: `/pix/${f.e2e}`, ms: 120_000 });
    await withoutExpiry(api);
    vi.setSystemTime(Date.parse(`${day}T12:00:00-03:00`) + 14 * 3_600_000);
    const pending = await reconcileDay(env, partner(), day);
    expect(pending.status).toBe('PENDING');
    expect(pending.healed.map((h) => [h.subject, h.endToEndId, h.outcome])).toEqual([
      ['RECEIVED', b.e2e, ['paid']],
    ]);
    expect(Date.parse(pending.healed[0]?.healedAt ?? '')).toBeLessThanOrEqual(Date.now());
    await psp('outage', { match: `/pix/${f.e2e}`, ms: 0 });
    const rerun = await reconcileDay(env, partner(), day);
    expect(rerun.status).not.toBe('PENDING');
    expect(rerun.counts.healed).toBe(0);
    expect(rerun.healed).toEqual(pending.healed);
    expect((await report(day)).healed).toEqual(pending.healed);
    // Booked once all the same.
    const entries = await statementOf(await reauth(api));
    expect(entries.filter((e) => e.endToEndId === b.e2e)).toHaveLength(1);
  });

  it('a refund and a payout the bank took but has not settled are out of its balance: MATCHED; a real difference breaks', async () => {
    const day = pastDay(18);
    liveOn(day);
    const prior = await priorBalance();
    let api = await onboardOnDay();
    const a = await paid(api, 100);
    await paid(api, 60);
    await withoutRechecks(api);
    // The PSP takes the refund's devolution and keeps it EM_PROCESSAMENTO until the test settles it.
    const refund = await api.signedPost(`/cash-in/${a.cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(refund.status).toBe(202);
    const devolutionId = ((await refund.json()) as { endToEndId: string }).endToEndId;
    expect((await waitForDevolution(psp, a.e2e))[0]?.status).toBe('EM_PROCESSAMENTO');
    // And the payout, sent and not settled.
    const out = await createCashOut(api, { amount: 30 });
    await waitFor(
      () => psp(`sent/${out.transactionId}`),
      (s) => s !== null,
    );
    // The bank debited both when it took them: 100 + 60 - 100 - 30.
    await psp('balance', { saldo: brl(prior + 3000) });
    vi.setSystemTime(Date.parse(`${day}T12:00:00-03:00`) + 14 * 3_600_000);
    const inFlight = await reconcileDay(env, partner(), day);
    expect(inFlight.breaks).toEqual([]);
    expect(inFlight.status).toBe('MATCHED');
    // Compared: our books less what is in flight (this test's 130.00 and whatever other tests left in flight).
    const figures = (b: ReconciliationReport['balance']) => ({
      books: cents(b?.books ?? Number.NaN),
      inFlightOut: cents(b?.inFlightOut ?? Number.NaN),
      ours: cents(b?.ours ?? Number.NaN),
      theirs: cents(b?.theirs ?? Number.NaN),
    });
    const during = figures(inFlight.balance);
    expect(during).toMatchObject({ ours: prior + 3000, theirs: prior + 3000 });
    expect(during.books - during.inFlightOut).toBe(during.ours);
    expect(during.inFlightOut).toBeGreaterThanOrEqual(13000);
    expect(await consoleBooks()).toContain(
      `in flight to the partner ${brlFromReais(inFlight.balance?.inFlightOut ?? Number.NaN)}`,
    );

    // A real difference, one centavo, is still a break.
    await psp('balance', { saldo: brl(prior + 2999) });
    const off = await reconcileDay(env, partner(), day);
    expect(off.status).toBe('BREAKS');
    expect(off.breaks).toEqual([
      {
        kind: 'AMOUNT_DIFFERS',
        subject: 'BALANCE',
        ours: { amount: (prior + 3000) / 100, status: 'SETTLED' },
        theirs: { amount: (prior + 2999) / 100, status: 'SETTLED' },
      },
    ]);

    // Both settle: nothing in flight, the books hold what the bank does.
    await psp('balance', { saldo: brl(prior + 3000) });
    await psp('devolution', { endToEndId: a.e2e, id: devolutionId, ok: true });
    await psp('payout', { transactionId: out.transactionId, ok: true, at: nowIso() });
    api = await reauth(api);
    await waitFor(
      () => getCashIn(api, a.cashIn.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    expect((await settled(api, out.transactionId)).status).toBe('COMPLETED');
    const after = await reconcileDay(env, partner(), day);
    expect(after.status).toBe('MATCHED');
    // The refund and the payout left our books and the in-flight figure alike, to the centavo.
    const settledFigures = figures(after.balance);
    expect(settledFigures).toMatchObject({ ours: prior + 3000, theirs: prior + 3000 });
    expect(during.books - settledFigures.books).toBe(13000);
    expect(during.inFlightOut - settledFigures.inFlightOut).toBe(13000);
    await assertBooks(api);
  });

  it('a FAILED unapplied return the bank settled later, its callback lost: the day heals it, client- and partner-held', async () => {
    const day = pastDay(16);
    liveOn(day);
    const api = await onboardOnDay();
    const a = await paid(api, 25);
    await withoutRechecks(api);
    const dup = newE2e();
    await psp('pay', { txid: a.cashIn.transactionId, endToEndId: dup, horario: nowIso() });
    expect((await callback(dup))[0]?.outcomes).toEqual(['duplicate']);
    const stray = newE2e();
    await psp('receive', {
      endToEndId: stray,
      valor: '6.40',
      txid: 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW',
      horario: nowIso(),
    });
    expect((await callback(stray))[0]?.outcomes).toEqual(['unmatched']);
    await returnPartnerHeld(env);
    const refused: Record<string, string | undefined> = {};
    for (const e2e of [dup, stray]) {
      refused[e2e] = (await waitForDevolution(psp, e2e))[0]?.id;
      await psp('devolution', { endToEndId: e2e, id: refused[e2e], ok: false });
    }
    await returnPartnerHeld(env, Date.now() + 5_000);
    await waitForReturn(dup, 'FAILED');
    await waitForReturn(stray, 'FAILED');
    // Its reads pushed past the run: only the reconciliation can find what the network did next.
    await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
      state.storage.sql.exec(
        "UPDATE tasks SET due_at = ? WHERE kind = 'return-unapplied'",
        Date.now() + 30 * 86_400_000,
      );
    });
    for (const e2e of [dup, stray]) await psp('devolution', { endToEndId: e2e, id: refused[e2e], ok: true });
    vi.setSystemTime(Date.parse(`${day}T12:00:00-03:00`) + 14 * 3_600_000);
    const result = await reconcileDay(env, partner(), day);
    const healed = result.healed.map((h) => [h.subject, h.endToEndId, h.outcome]);
    expect(healed).toContainEqual(['DEVOLUTION', dup, ['returned']]);
    expect(healed).toContainEqual(['DEVOLUTION', stray, ['returned']]);
    expect(result.breaks.filter((x) => x.endToEndId === dup || x.endToEndId === stray)).toEqual([]);
    for (const e2e of [dup, stray]) {
      expect((await unappliedOf(e2e))?.return.status, e2e).toBe('RETURNED');
      expect((await psp(`pix/${e2e}`)).devolucoes).toHaveLength(1);
    }
    const [held] = await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) =>
      state.storage.sql
        .exec<{ held: number }>(
          "SELECT coalesce(sum(CASE direction WHEN 'CREDIT' THEN amount ELSE -amount END), 0) AS held FROM suspense_entries",
        )
        .toArray(),
    );
    expect(held?.held).toBe(0);
    // Run again: nothing returned twice.
    const again = await reconcileDay(env, partner(), day);
    expect(again.counts.healed).toBe(0);
    expect(again.breaks.filter((x) => x.endToEndId === dup || x.endToEndId === stray)).toEqual([]);
  });
});
