/**
 * Pix Automático on a real partner without its callbacks: the PSP's `rec` and `cobr` callbacks are
 * never posted, and the ClientLedger's own re-reads (`GET /rec/{idRec}`, `GET /cobr/{txid}`, its
 * `recheck-recurrence` and `recheck-recurring-charge` tasks) bring the recurrence to APPROVED, record
 * the failed attempt and ask for the retry, and book the paying Pix once; the expiry of the Cash-In
 * does not end a `cobr` on `GET /cob`. A callback arriving late finds everything recorded. Books
 * equal the PSP's, centavo by centavo.
 */
import { describe, expect, it } from 'vitest';
import type { RecurrenceBody } from '../../src/api/recurrence/shared';
import { addDays, settlementDate } from '../../src/domain/recurrence';
import { brtDate } from '../../src/domain/time';
import { waitFor } from '../support/cash-in';
import { assertBooks } from '../support/invariants';
import { cashInRow } from '../support/ledger-reads';
import { setCashInExpiry } from '../support/ledger-writes';
import { onboardRec, recPsp, recurrenceCallback } from '../support/partner-psp';
import { runTasksNow, tasksOf } from '../support/psp-books';
import { recurrenceBody } from '../support/recurrence';

const cents = (v: string) => Math.round(Number(v) * 100);

describe('Pix Automático at a real partner whose callbacks never come', () => {
  it('the sweep approves the recurrence, records the failed attempt, books the paid retry once', async () => {
    const api = await onboardRec();
    const start = addDays(brtDate(Date.now()), 5);
    const created = await api.post('/recurrences', recurrenceBody({ startDate: start }));
    expect(created.status, await created.clone().text()).toBe(201);
    const rec = (await created.json()) as RecurrenceBody;
    const path = `/recurrences/${rec.recurrenceId}`;
    expect(await tasksOf(api, 'recheck-recurrence')).toHaveLength(1);

    // The payer approves in their bank; no callback. Read again while still waiting: nothing moves.
    await runTasksNow(api, 'recheck-recurrence');
    await waitFor(
      () => tasksOf(api, 'recheck-recurrence'),
      (t) => t.length === 1 && (t[0]?.due_at ?? 0) > Date.now() + 60_000,
    );
    expect(((await (await api.get(path)).json()) as RecurrenceBody).status).toBe('WAITING_AUTHORIZATION');
    await recPsp('rec-approve', { idRec: rec.recurrenceId });
    await runTasksNow(api, 'recheck-recurrence');
    const approved = await waitFor(
      async () => (await (await api.get(path)).json()) as RecurrenceBody,
      (r) => r.status === 'APPROVED',
    );
    expect(approved.status).toBe('APPROVED');
    expect(await tasksOf(api, 'recheck-recurrence')).toEqual([]);
    expect(await recurrenceCallback('rec', rec.recurrenceId)).toEqual(['already-recorded']);

    const charged = await api.post(`${path}/charges`, {
      amount: 29.9,
      dueDate: start,
      externalReference: `cobr-${crypto.randomUUID()}`,
    });
    expect(charged.status, await charged.clone().text()).toBe(201);
    const { transactionId: txid } = (await charged.json()) as { transactionId: string };
    const [recheck] = await tasksOf(api, 'recheck-recurring-charge');
    // Due after the due date's first window (08:00 in São Paulo, 11:00 UTC, plus its margin).
    expect(new Date(recheck?.due_at ?? 0).toISOString()).toBe(`${settlementDate(start)}T11:10:00.000Z`);

    // The first attempt fails; no callback. The re-read records it and asks for the next day's retry.
    await recPsp('cobr-fail', { txid });
    await runTasksNow(api, 'recheck-recurring-charge');
    const failed = await waitFor(
      async () =>
        ((await (await api.get(`${path}/charges`)).json()) as { items: { failedAttempts: number }[] }).items,
      (items) => items[0]?.failedAttempts === 1,
    );
    expect(failed).toMatchObject([{ status: 'AWAITING_PAYMENT', failedAttempts: 1, attemptsLeft: 4 }]);
    const retried = await waitFor(
      () => recPsp(`cobr/${txid}`),
      (c) => c.tentativas.length === 2,
    );
    expect(retried.tentativas.map((t: { tipo: string; status: string }) => [t.tipo, t.status])).toEqual([
      ['AGND', 'REJEITADA'],
      ['RIFL', 'AGENDADA'],
    ]);

    // Past the Cash-In's expiry, the expiry does not end a `cobr` on `GET /cob` (which has no such charge).
    const expiresAt = (await cashInRow(api.client.clientId, txid))?.expiresAt ?? 0;
    const setExpiry = (at: number) => setCashInExpiry(api.client.clientId, { transactionId: txid }, at);
    await setExpiry(0);
    await runTasksNow(api, 'expire-cash-in');
    await waitFor(
      () => tasksOf(api, 'expire-cash-in'),
      (t) => t.length === 0,
    );
    expect(((await (await api.get(`/cash-in/${txid}`)).json()) as { status: string }).status).toBe(
      'AWAITING_PAYMENT',
    );

    await setExpiry(expiresAt); // the retry day comes before the last attempt's end
    // The retry pays; no callback. The re-read books the Pix that paid it, once.
    await recPsp('cobr-pay', { txid });
    await runTasksNow(api, 'recheck-recurring-charge');
    const paid = await waitFor(
      async () =>
        (await (await api.get(`/cash-in/${txid}`)).json()) as { status: string; endToEndId?: string },
      (c) => c.status === 'PAID',
    );
    expect(paid.status).toBe('PAID');
    await waitFor(
      () => tasksOf(api, 'recheck-recurring-charge'),
      (t) => t.length === 0,
    );
    expect(await tasksOf(api, 'recheck-recurring-charge')).toEqual([]);
    expect(await recurrenceCallback('cobr', txid)).toEqual(['already-paid', 'already-recorded']);

    const atPsp = (await recPsp(`cobr/${txid}`)) as { status: string; pix: { endToEndId: string }[] };
    expect(atPsp.status).toBe('CONCLUIDA');
    const pix = (await recPsp(`pix/${atPsp.pix[0]?.endToEndId}`)) as { valor: string };
    expect(paid.endToEndId).toBe(atPsp.pix[0]?.endToEndId);
    const books = await assertBooks(api);
    expect(books.cashIns.map((c) => [c.transaction_id, c.status])).toEqual([[txid, 'PAID']]);
    expect(books.entries.filter((e) => e.type === 'PIX_IN').map((e) => e.amount)).toEqual([cents(pix.valor)]);
    expect((await recPsp('invalid')).invalid).toEqual([]);
  });
});
