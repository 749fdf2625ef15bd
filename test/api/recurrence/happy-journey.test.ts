/**
 * The integrator journey of docs/integrating.md (Pix Automático), through real HTTP on the sandbox:
 * a subscription of R$ 29,90 a month authorized by QR, charged twice (the first charge's first
 * attempt fails, its retry pays), then cancelled by the payer; refusals of charges outside the
 * rules on the way; the books end equal to the sandbox partner's, centavo by centavo.
 */
import { describe, expect, it } from 'vitest';
import type { CashInBody } from '../../../src/api/cash-in/shared';
import type { RecurringCashInCreatedBody } from '../../../src/api/recurrence/charge-recurrence';
import type { RecurrenceChargesBody } from '../../../src/api/recurrence/list-recurrence-charges';
import type { RecurrenceBody } from '../../../src/api/recurrence/shared';
import { addDays, cycleDueDate } from '../../../src/domain/recurrence';
import { brtDate } from '../../../src/domain/time';
import { fullStatement } from '../../support/account';
import { getCashIn, payCashIn } from '../../support/cash-in';
import { cashInBody, Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';
import { cashIns } from '../../support/ledger-reads';
import { recurrenceBody } from '../../support/recurrence';
import { newSink, outboxEvents, waitForRequests } from '../../support/webhooks';

type SinkEvent = { eventType: string; data: Partial<CashInBody> };

async function charge(api: Integrator, id: string, body: Record<string, unknown>) {
  return api.post(`/recurrences/${id}/charges`, {
    externalReference: `cobr-${crypto.randomUUID()}`,
    ...body,
  });
}

describe('Pix Automático journey (docs/integrating.md)', () => {
  it('R$ 29,90 a month: QR authorization, two charges (one failed attempt, then paid), cancelled by the payer', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const today = brtDate(Date.now());
    const start = addDays(today, 5);
    const created = await api.post(
      '/recurrences',
      recurrenceBody({ startDate: start, webhookUrl: sink.url }),
    );
    expect(created.status).toBe(201);
    const rec = (await created.json()) as RecurrenceBody;
    expect(rec.authorization.copyAndPaste).toMatch(/^000201/);

    // Not approved yet: nothing is charged.
    const early = await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start });
    expect(early.status).toBe(422);
    expect(((await early.json()) as { detail: string }).detail).toMatch(/Only an APPROVED recurrence/);

    expect((await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {})).status).toBe(200);

    // Outside the rules: another amount, a date that is no cycle's, a cycle outside its window.
    for (const [body, detail] of [
      [{ amount: 30, dueDate: start }, /exactly 2990 centavos/],
      [{ amount: 29.9, dueDate: addDays(start, 1) }, /is not a due date/],
      [{ amount: 29.9, dueDate: cycleDueDate(start, 'MONTHLY', 1) }, /is sent from/],
    ] as const) {
      const res = await charge(api, rec.recurrenceId, body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    }
    expect((await cashIns(api.client.clientId)).length).toBe(0);

    // First cycle: charged, its first attempt fails, the retry pays.
    const first = await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start });
    expect(first.status).toBe(201);
    const one = (await first.json()) as RecurringCashInCreatedBody;
    expect(one).toMatchObject({
      status: 'AWAITING_PAYMENT',
      amount: 29.9,
      payer: { document: '12345678909' },
      recurrence: {
        recurrenceId: rec.recurrenceId,
        cycle: 0,
        dueDate: start,
        failedAttempts: 0,
        attemptsLeft: 5,
      },
    });
    const twice = await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start });
    expect(twice.status).toBe(422);
    expect(((await twice.json()) as { detail: string }).detail).toMatch(/already charged/);

    const failed = await api.post(`/sandbox/cash-in/${one.transactionId}/fail-attempt`, {});
    expect(failed.status).toBe(200);
    expect(await failed.json()).toMatchObject({
      status: 'AWAITING_PAYMENT',
      recurrence: { failedAttempts: 1, attemptsLeft: 4 },
    });
    expect((await payCashIn(api, one.internalCode)).status).toBe('PAID');

    // The Cash-In carries its recurrence wherever it is read: GET by every id, the list, its events.
    const paidOne = await getCashIn(api, one.externalReference);
    expect(paidOne.recurrence).toEqual({ ...one.recurrence, failedAttempts: 1, attemptsLeft: 4 });
    expect(await getCashIn(api, one.internalCode)).toEqual(paidOne);
    expect(await getCashIn(api, one.transactionId)).toEqual(paidOne);

    // A month later (the sandbox's clock): the second cycle, paid at its first attempt.
    const due2 = cycleDueDate(start, 'MONTHLY', 1);
    const tooEarly = await api.post(`/sandbox/recurrences/${rec.recurrenceId}/charges`, {
      amount: 29.9,
      dueDate: due2,
      externalReference: `cobr-${crypto.randomUUID()}`,
      asOf: addDays(due2, -11),
    });
    expect(tooEarly.status).toBe(422);
    const second = await api.post(`/sandbox/recurrences/${rec.recurrenceId}/charges`, {
      amount: 29.9,
      dueDate: due2,
      externalReference: `cobr-${crypto.randomUUID()}`,
      asOf: addDays(due2, -5),
    });
    expect(second.status, await second.clone().text()).toBe(201);
    const two = (await second.json()) as RecurringCashInCreatedBody;
    expect(two.recurrence).toMatchObject({ cycle: 1, dueDate: due2 });
    expect((await payCashIn(api, two.internalCode)).status).toBe('PAID');
    expect((await getCashIn(api, two.externalReference)).transactionId).toBe(two.transactionId);

    // The payer cancels in their bank: no further cycle is charged.
    const cancelled = await api.post(`/sandbox/recurrences/${rec.recurrenceId}/cancel`, {});
    expect(await cancelled.json()).toMatchObject({ status: 'CANCELLED', cancelledBy: 'PAYER' });
    const after = await api.post(`/sandbox/recurrences/${rec.recurrenceId}/charges`, {
      amount: 29.9,
      dueDate: cycleDueDate(start, 'MONTHLY', 2),
      externalReference: `cobr-${crypto.randomUUID()}`,
      asOf: addDays(cycleDueDate(start, 'MONTHLY', 2), -5),
    });
    expect(after.status).toBe(422);
    expect(((await after.json()) as { detail: string }).detail).toMatch(/Only an APPROVED recurrence/);

    const delivered = (await waitForRequests(sink, 7)).map((r) => JSON.parse(r.body) as SinkEvent);
    const events = delivered.map((e) => e.eventType);
    // Each of the Cash-In's own events carries its recurrence.
    for (const e of delivered.filter((d) => d.eventType.startsWith('CASHIN')))
      expect(e.data.recurrence?.recurrenceId, e.eventType).toBe(rec.recurrenceId);
    expect(events.filter((e) => e.startsWith('CASHIN')).sort()).toEqual([
      'CASHIN_PAID',
      'CASHIN_PAID',
      'CASHIN_REQUESTED',
      'CASHIN_REQUESTED',
    ]);
    expect(events.filter((e) => e.startsWith('RECURR'))).toEqual([
      'RECURRENCE_APPROVED',
      'RECURRING_CHARGE_ATTEMPT_FAILED',
      'RECURRENCE_CANCELLED',
    ]);
    expect((await outboxEvents(api.client.clientId, one.transactionId)).map((e) => e.eventType)).toEqual([
      'CASHIN_REQUESTED',
      'CASHIN_PAID',
    ]);
    const charges = (await (
      await api.get(`/recurrences/${rec.recurrenceId}/charges`)
    ).json()) as RecurrenceChargesBody;
    expect(charges.items.map((c) => [c.transactionId, c.cycle, c.status, c.failedAttempts])).toEqual([
      [one.transactionId, 0, 'PAID', 1],
      [two.transactionId, 1, 'PAID', 0],
    ]);
    const period = `from=${today}&to=${addDays(today, 1)}`;
    const listed = (await (await api.get(`/cash-in?${period}`)).json()) as { items: CashInBody[] };
    expect(listed.items.map((c) => [c.transactionId, c.recurrence?.cycle])).toEqual([
      [one.transactionId, 0],
      [two.transactionId, 1],
    ]);
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!.number;
    const statement = await fullStatement(api, transactional);
    expect(statement.filter((i) => i.type === 'PIX_IN').map((i) => i.description)).toEqual([
      `PIX recebido ${one.internalCode} (Pix Automático ${rec.recurrenceId}, ciclo 0)`,
      `PIX recebido ${two.internalCode} (Pix Automático ${rec.recurrenceId}, ciclo 1)`,
    ]);
    const books = await assertBooks(api);
    expect(books.entries.filter((e) => e.type === 'PIX_IN').map((e) => e.amount)).toEqual([2990, 2990]);
  });

  it('a charge whose every attempt fails ends EXPIRED after the last one the recurrence allows', async () => {
    const api = await Integrator.create();
    const start = addDays(brtDate(Date.now()), 3);
    const rec = (await (
      await api.post('/recurrences', recurrenceBody({ startDate: start, retryPolicy: 'NONE' }))
    ).json()) as RecurrenceBody;
    await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {});
    const one = (await (
      await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start })
    ).json()) as RecurringCashInCreatedBody;
    expect(one.recurrence.attemptsLeft).toBe(2);
    expect(
      await (await api.post(`/sandbox/cash-in/${one.transactionId}/fail-attempt`, {})).json(),
    ).toMatchObject({
      status: 'AWAITING_PAYMENT',
      recurrence: { attemptsLeft: 1 },
    });
    expect(
      await (await api.post(`/sandbox/cash-in/${one.transactionId}/fail-attempt`, {})).json(),
    ).toMatchObject({
      status: 'EXPIRED',
      recurrence: { failedAttempts: 2, attemptsLeft: 0 },
    });
    expect((await api.post(`/sandbox/cash-in/${one.transactionId}/fail-attempt`, {})).status).toBe(422);
    // The cycle stays charged: a second charge of it is refused.
    const two = (await (
      await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: cycleDueDate(start, 'MONTHLY', 0) })
    ).json()) as {
      detail: string;
    };
    expect(two.detail).toMatch(/already charged/);
    await assertBooks(api);
  });

  it('the payer cancels a charge until the day before it is due; an ordinary Cash-In is no recurring charge', async () => {
    const api = await Integrator.create();
    const start = addDays(brtDate(Date.now()), 4);
    const rec = (await (
      await api.post('/recurrences', recurrenceBody({ startDate: start }))
    ).json()) as RecurrenceBody;
    await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {});
    const one = (await (
      await charge(api, rec.recurrenceId, { amount: 29.9, dueDate: start })
    ).json()) as RecurringCashInCreatedBody;
    const cancelled = await api.post(`/sandbox/cash-in/${one.transactionId}/payer-cancel`, {});
    expect(await cancelled.json()).toMatchObject({ status: 'CANCELLED', recurrence: { cycle: 0 } });
    const plain = await api.post('/cash-in', cashInBody());
    const ordinary = (await plain.json()) as { transactionId: string };
    for (const verb of ['fail-attempt', 'payer-cancel'])
      expect((await api.post(`/sandbox/cash-in/${ordinary.transactionId}/${verb}`, {})).status).toBe(404);
    await assertBooks(api);
  });
});
