/**
 * Pix Automático's date rules through real HTTP (docs/contract.md, Pix Automático), reached with the
 * sandbox's clock (POST /sandbox/recurrences/{id}/charges with `asOf`) instead of edited storage: a
 * monthly recurrence from 31 January (28 February, 31 March), a leap year (29 February, and an annual
 * one from it), the 10-to-2-day window's edges in America/Sao_Paulo days, and due dates on a weekend
 * settled on Monday. Then a recurring charge refunded and one disputed, like any Cash-In.
 */
import { describe, expect, it } from 'vitest';
import type { CashInBody } from '../../../src/api/cash-in/shared';
import type { RecurringCashInCreatedBody } from '../../../src/api/recurrence/charge-recurrence';
import type { RecurrenceBody } from '../../../src/api/recurrence/shared';
import { addDays, cycleDueDate } from '../../../src/domain/recurrence';
import { brtDate } from '../../../src/domain/time';
import { getCashIn, payCashIn, waitFor } from '../../support/cash-in';
import { Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';
import { cashIns } from '../../support/ledger-reads';
import { recurrenceBody } from '../../support/recurrence';

async function approved(api: Integrator, body: Record<string, unknown>): Promise<RecurrenceBody> {
  const created = await api.post('/recurrences', recurrenceBody(body));
  expect(created.status, await created.clone().text()).toBe(201);
  const rec = (await created.json()) as RecurrenceBody;
  expect((await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {})).status).toBe(200);
  return rec;
}

const chargeAsOf = (api: Integrator, rec: RecurrenceBody, dueDate: string, asOf: string) =>
  api.post(`/sandbox/recurrences/${rec.recurrenceId}/charges`, {
    amount: rec.amount,
    dueDate,
    externalReference: `cobr-${crypto.randomUUID()}`,
    asOf,
  });

async function refused(res: Response): Promise<string> {
  expect(res.status).toBe(422);
  return ((await res.json()) as { detail: string }).detail;
}

async function charged(res: Response): Promise<RecurringCashInCreatedBody> {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as RecurringCashInCreatedBody;
}

describe("the sandbox's clock: date rules in America/Sao_Paulo", () => {
  it('31 January monthly: 28 February, 31 March; the window opens 10 and closes 2 days before; Sunday settles on Monday', async () => {
    const api = await Integrator.create();
    const rec = await approved(api, { startDate: '2027-01-31', retryPolicy: 'NONE' });

    // Cycle 0, due Sunday 31 January: the window is 21 to 29 January.
    expect(await refused(await chargeAsOf(api, rec, '2027-01-31', '2027-01-20'))).toBe(
      'dueDate: a charge due on 2027-01-31 is sent from 2027-01-21 to 2027-01-29 (today is 2027-01-20)',
    );
    expect(await refused(await chargeAsOf(api, rec, '2027-01-31', '2027-01-30'))).toMatch(
      /from 2027-01-21 to 2027-01-29 \(today is 2027-01-30\)/,
    );
    const january = await charged(await chargeAsOf(api, rec, '2027-01-31', '2027-01-21'));
    expect(january.recurrence).toMatchObject({ cycle: 0, dueDate: '2027-01-31' });
    // No retries: the last attempt is the settlement date's 21:00, Monday 1 February.
    expect((await getCashIn(api, january.transactionId)).expiredAt).toBe('2027-02-01T21:00:00.000-03:00');

    // Cycle 1 falls due on 28 February (a Sunday), not 27 nor 3 March; charged on the window's last day.
    expect(await refused(await chargeAsOf(api, rec, '2027-02-27', '2027-02-20'))).toMatch(
      /2027-02-27 is not a due date of this MONTHLY recurrence starting 2027-01-31/,
    );
    expect(await refused(await chargeAsOf(api, rec, '2027-02-28', '2027-02-27'))).toMatch(
      /from 2027-02-18 to 2027-02-26/,
    );
    const february = await charged(await chargeAsOf(api, rec, '2027-02-28', '2027-02-26'));
    expect(february.recurrence).toMatchObject({ cycle: 1, dueDate: '2027-02-28' });
    expect((await getCashIn(api, february.transactionId)).expiredAt).toBe('2027-03-01T21:00:00.000-03:00');

    // Cycle 2 counts from the start date: 31 March (a Wednesday), not 28 March; the window's first day.
    expect(await refused(await chargeAsOf(api, rec, '2027-03-28', '2027-03-20'))).toMatch(
      /is not a due date/,
    );
    expect(await refused(await chargeAsOf(api, rec, '2027-03-31', '2027-03-20'))).toMatch(
      /from 2027-03-21 to 2027-03-29/,
    );
    const march = await charged(await chargeAsOf(api, rec, '2027-03-31', '2027-03-21'));
    expect(march.recurrence).toMatchObject({ cycle: 2, dueDate: '2027-03-31' });
    expect((await getCashIn(api, march.transactionId)).expiredAt).toBe('2027-03-31T21:00:00.000-03:00');

    // One charge per cycle, whatever the clock says.
    expect(await refused(await chargeAsOf(api, rec, '2027-03-31', '2027-03-22'))).toMatch(/already charged/);
    expect((await cashIns(api.client.clientId)).length).toBe(3);
    await assertBooks(api);
  });

  it('leap years: 31 January 2028 falls due on 29 February; an annual one from 29 February on 28 February 2029', async () => {
    const api = await Integrator.create();
    const monthly = await approved(api, { startDate: '2028-01-31' });
    expect(await refused(await chargeAsOf(api, monthly, '2028-02-28', '2028-02-19'))).toMatch(
      /is not a due date/,
    );
    const leap = await charged(await chargeAsOf(api, monthly, '2028-02-29', '2028-02-19'));
    expect(leap.recurrence).toMatchObject({ cycle: 1, dueDate: '2028-02-29', attemptsLeft: 5 });
    // With retries the last attempt is 21:00 on the seventh day after the due date (Tuesday 7 March).
    expect((await getCashIn(api, leap.transactionId)).expiredAt).toBe('2028-03-07T21:00:00.000-03:00');

    const annual = await approved(api, { startDate: '2028-02-29', frequency: 'ANNUAL', retryPolicy: 'NONE' });
    expect(await refused(await chargeAsOf(api, annual, '2029-03-01', '2029-02-20'))).toMatch(
      /is not a due date/,
    );
    const next = await charged(await chargeAsOf(api, annual, '2029-02-28', '2029-02-18'));
    expect(next.recurrence).toMatchObject({ cycle: 1, dueDate: '2029-02-28' });
    await assertBooks(api);
  });

  it('weekly from a Saturday: each due date settles on the Monday after', async () => {
    const api = await Integrator.create();
    const rec = await approved(api, { startDate: '2027-01-30', frequency: 'WEEKLY', retryPolicy: 'NONE' });
    const second = await charged(await chargeAsOf(api, rec, '2027-02-06', '2027-01-28'));
    expect(second.recurrence).toMatchObject({ cycle: 1, dueDate: '2027-02-06' });
    expect((await getCashIn(api, second.transactionId)).expiredAt).toBe('2027-02-08T21:00:00.000-03:00');
    expect(await refused(await chargeAsOf(api, rec, '2027-02-07', '2027-01-30'))).toMatch(
      /is not a due date/,
    );
    await assertBooks(api);
  });
});

describe('a recurring charge is an ordinary Cash-In', () => {
  it('refunded and disputed like any other, keeping its recurrence; the books equal the PSP', async () => {
    const api = await Integrator.create();
    const start = addDays(brtDate(Date.now()), 5);
    const rec = await approved(api, { startDate: start });
    const first = await charged(await chargeAsOf(api, rec, start, brtDate(Date.now())));
    await payCashIn(api, first.internalCode);
    const refund = await api.signedPost(`/cash-in/${first.internalCode}/refund`, {
      reason: 'CUSTOMER_REQUEST',
    });
    expect(refund.status).toBe(202);
    const refunded = await waitFor(
      () => getCashIn(api, first.transactionId),
      (c) => c.status === 'REFUNDED',
    );
    expect(refunded.recurrence).toEqual(first.recurrence);

    const due2 = cycleDueDate(start, 'MONTHLY', 1);
    const second = await charged(await chargeAsOf(api, rec, due2, addDays(due2, -3)));
    await payCashIn(api, second.internalCode);
    const opened = await api.post(`/sandbox/cash-in/${second.internalCode}/dispute`, {});
    expect(opened.status).toBe(201);
    const disputed = (await opened.json()) as CashInBody;
    expect(disputed.dispute).toMatchObject({ status: 'OPEN', blockedAmount: 29.9 });
    expect(disputed.recurrence).toMatchObject({ recurrenceId: rec.recurrenceId, cycle: 1, dueDate: due2 });
    const closed = await api.post(`/sandbox/cash-in/${second.internalCode}/dispute/close`, {
      outcome: 'ACCEPTED',
    });
    expect(closed.status).toBe(200);
    expect(((await closed.json()) as CashInBody).recurrence?.cycle).toBe(1);
    await assertBooks(api);
  });
});
