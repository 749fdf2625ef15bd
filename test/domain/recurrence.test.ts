/**
 * Pix Automático's pure rules (src/domain/recurrence.ts): due dates across month ends and leap
 * years, weekends, the 10-to-2-day window's edges in America/Sao_Paulo, the payer's cancellation
 * deadline, amounts and retries.
 */
import { describe, expect, it } from 'vitest';
import { cycleChargeTxId, internalCodeOfTxId } from '../../src/domain/ids';
import {
  amountRefusal,
  chargeRecheckAt,
  chargeWindow,
  cycleDueDate,
  cycleOf,
  dueDateRefusal,
  isCalendarDate,
  lastAttemptDay,
  PERIODICIDADE,
  payerCancelDeadline,
  type RecurrenceTerms,
  recurrenceRecheckAt,
  retryRefusal,
  settlementDate,
  termsRefusal,
} from '../../src/domain/recurrence';

const monthly: RecurrenceTerms = {
  frequency: 'MONTHLY',
  startDate: '2027-01-31',
  endDate: null,
  fixedAmount: 2990,
  minimumAmount: null,
  payerMaximumAmount: null,
  retryPolicy: 'THREE_IN_SEVEN_DAYS',
};
/** An instant at hh:mm on a calendar date in America/Sao_Paulo. */
const at = (date: string, time = '12:00') => Date.parse(`${date}T${time}:00.000-03:00`);

describe('due dates', () => {
  it('a monthly recurrence starting 31 January falls due on the last day of shorter months, then on the 31st again', () => {
    const dues = [0, 1, 2, 3, 4].map((n) => cycleDueDate('2027-01-31', 'MONTHLY', n));
    expect(dues).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
    expect(cycleDueDate('2028-01-31', 'MONTHLY', 1)).toBe('2028-02-29');
  });

  it('leap years: an annual recurrence from 29 February falls due on 28 February, and on 29 February in the next leap year', () => {
    expect(cycleDueDate('2028-02-29', 'ANNUAL', 1)).toBe('2029-02-28');
    expect(cycleDueDate('2028-02-29', 'ANNUAL', 4)).toBe('2032-02-29');
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
  });

  it('weekly, quarterly and semiannual cycles, and which cycle a date is', () => {
    expect(cycleDueDate('2027-12-28', 'WEEKLY', 1)).toBe('2028-01-04');
    expect(cycleDueDate('2027-11-30', 'QUARTERLY', 1)).toBe('2028-02-29');
    expect(cycleDueDate('2027-08-31', 'SEMIANNUAL', 1)).toBe('2028-02-29');
    expect(cycleOf('2027-01-31', 'MONTHLY', '2027-02-28')).toBe(1);
    expect(cycleOf('2027-01-31', 'MONTHLY', '2027-03-31')).toBe(2);
    expect(cycleOf('2027-01-31', 'MONTHLY', '2027-03-28')).toBeUndefined();
    expect(cycleOf('2027-01-31', 'MONTHLY', '2027-01-30')).toBeUndefined();
    expect(cycleOf('2027-01-05', 'WEEKLY', '2027-03-02')).toBe(8);
    expect(PERIODICIDADE.SEMIANNUAL).toBe('SEMESTRAL');
  });

  it('a due date on a weekend settles on the following Monday', () => {
    expect(settlementDate('2027-02-27')).toBe('2027-03-01'); // Saturday
    expect(settlementDate('2027-02-28')).toBe('2027-03-01'); // Sunday
    expect(settlementDate('2027-03-01')).toBe('2027-03-01');
    expect(settlementDate('2027-02-27', false)).toBe('2027-02-27');
  });
});

describe('the charge window', () => {
  it('is 10 to 2 calendar days before the due date, across a month end', () => {
    expect(chargeWindow('2027-03-01')).toEqual({ from: '2027-02-19', to: '2027-02-27' });
    expect(chargeWindow('2028-03-01')).toEqual({ from: '2028-02-20', to: '2028-02-28' });
  });

  it('its edges are days in America/Sao_Paulo, not UTC', () => {
    // due 2027-02-28: window 2027-02-18 .. 2027-02-26
    expect(dueDateRefusal(monthly, '2027-02-28', at('2027-02-18', '00:00'))).toBeUndefined();
    expect(dueDateRefusal(monthly, '2027-02-28', at('2027-02-17', '23:59'))?.detail).toMatch(
      /sent from 2027-02-18 to 2027-02-26/,
    );
    expect(dueDateRefusal(monthly, '2027-02-28', at('2027-02-26', '23:59'))).toBeUndefined();
    // 02:30 UTC on the 27th is still the 26th in São Paulo
    expect(dueDateRefusal(monthly, '2027-02-28', Date.parse('2027-02-27T02:30:00Z'))).toBeUndefined();
    expect(dueDateRefusal(monthly, '2027-02-28', at('2027-02-27', '00:00'))?.code).toBe('RULE_VIOLATION');
  });

  it('refuses a date that is no cycle of the recurrence, and one after its end', () => {
    expect(dueDateRefusal(monthly, '2027-03-30', at('2027-03-25'))?.detail).toMatch(/not a due date/);
    expect(
      dueDateRefusal({ ...monthly, endDate: '2027-03-01' }, '2027-03-31', at('2027-03-25'))?.detail,
    ).toMatch(/after the recurrence's endDate/);
  });

  it('the payer may cancel until 23:59:59.999 the day before the due date', () => {
    expect(payerCancelDeadline('2027-03-01')).toBe(Date.parse('2027-03-01T02:59:59.999Z'));
  });
});

describe('terms and amounts', () => {
  it('refuses a start in the past, an end before the start, and a minimum on a fixed amount', () => {
    expect(termsRefusal(monthly, '2027-01-31')).toBeUndefined();
    expect(termsRefusal(monthly, '2027-02-01')?.errors).toEqual({ startDate: ['must not be before today'] });
    expect(termsRefusal({ ...monthly, endDate: '2027-01-30' }, '2027-01-01')?.errors).toHaveProperty(
      'endDate',
    );
    expect(termsRefusal({ ...monthly, minimumAmount: 100 }, '2027-01-01')?.errors).toHaveProperty(
      'minimumAmount',
    );
  });

  it('a fixed amount is exact; a variable one lies between the receiver floor and the payer ceiling', () => {
    expect(amountRefusal(monthly, 2990)).toBeUndefined();
    expect(amountRefusal(monthly, 2991)?.detail).toMatch(/exactly 2990/);
    const variable = { ...monthly, fixedAmount: null, minimumAmount: 1000, payerMaximumAmount: 5000 };
    expect(amountRefusal(variable, 1000)).toBeUndefined();
    expect(amountRefusal(variable, 5000)).toBeUndefined();
    expect(amountRefusal(variable, 999)?.detail).toMatch(/below/);
    expect(amountRefusal(variable, 5001)?.detail).toMatch(/payer's maximum of 5000/);
  });
});

describe('retries after the due date', () => {
  it('none without THREE_IN_SEVEN_DAYS', () => {
    expect(retryRefusal({ ...monthly, retryPolicy: 'NONE' }, '2027-02-28', '2027-03-01', [])?.detail).toMatch(
      /does not allow/,
    );
  });

  it('at most 3, on distinct dates, within 7 days after the due date and before the next cycle', () => {
    expect(retryRefusal(monthly, '2027-02-28', '2027-03-01', [])).toBeUndefined();
    expect(retryRefusal(monthly, '2027-02-28', '2027-03-07', ['2027-03-01', '2027-03-02'])).toBeUndefined();
    expect(
      retryRefusal(monthly, '2027-02-28', '2027-03-07', ['2027-03-01', '2027-03-02', '2027-03-03'])?.detail,
    ).toMatch(/At most 3/);
    expect(retryRefusal(monthly, '2027-02-28', '2027-03-01', ['2027-03-01'])?.detail).toMatch(/already/);
    expect(retryRefusal(monthly, '2027-02-28', '2027-03-08', [])?.detail).toMatch(/within 7 days/);
    expect(retryRefusal(monthly, '2027-02-28', '2027-02-28', [])?.detail).toMatch(/within 7 days/);
    const weekly = { ...monthly, frequency: 'WEEKLY' as const, startDate: '2027-03-01' };
    expect(retryRefusal(weekly, '2027-03-01', '2027-03-08', [])?.detail).toMatch(/before the next cycle/);
  });
});

describe("a real partner's cycle charge TxId", () => {
  const key = 'AbCdEfGhIjKlMnOpQrStUv';
  const code = 'kQ7x2M9';
  it('is the same on every attempt for a cycle, carries its code, and differs between cycles, recurrences and clients', async () => {
    const first = await cycleChargeTxId(key, code, 'RR0908935620270120abcdefghijk', 0);
    expect(await cycleChargeTxId(key, code, 'RR0908935620270120abcdefghijk', 0)).toBe(first);
    expect(first).toMatch(/^[A-Za-z0-9]{35}$/);
    expect(first.startsWith(key + code)).toBe(true);
    expect(internalCodeOfTxId(first)).toBe(code);
    const others = [
      await cycleChargeTxId(key, code, 'RR0908935620270120abcdefghijk', 1),
      await cycleChargeTxId(key, code, 'RR0908935620270120abcdefghijl', 0),
      await cycleChargeTxId('ZbCdEfGhIjKlMnOpQrStUv', code, 'RR0908935620270120abcdefghijk', 0),
    ];
    for (const other of others) expect(other.slice(29)).not.toBe(first.slice(29));
  });
});

describe('re-reads of a real partner (its callbacks may be lost)', () => {
  const at = (iso: string) => Date.parse(iso);
  it('a cycle charge: 10 minutes after each attempt window in São Paulo, weekends to Monday, then half-hourly', () => {
    // Due Saturday 2027-01-30: settled Monday 2027-02-01; windows end 08:00 and 21:00 BRT (11:00, 00:00 UTC).
    const last = lastAttemptDay('2027-01-30', 'NONE');
    expect(last).toBe('2027-02-01');
    expect(chargeRecheckAt('2027-01-30', last, at('2027-01-25T12:00:00Z'))).toBe(at('2027-02-01T11:10:00Z'));
    expect(chargeRecheckAt('2027-01-30', last, at('2027-02-01T11:10:00Z'))).toBe(at('2027-02-02T00:10:00Z'));
    const after = at('2027-02-02T00:10:00Z');
    expect(chargeRecheckAt('2027-01-30', last, after)).toBe(after + 30 * 60_000);
    // With retries, every day up to the last retry day (7 days on, its settlement date).
    const retries = lastAttemptDay('2027-01-30', 'THREE_IN_SEVEN_DAYS');
    expect(retries).toBe('2027-02-08');
    expect(chargeRecheckAt('2027-01-30', retries, after)).toBe(at('2027-02-02T11:10:00Z'));
    expect(chargeRecheckAt('2027-01-30', retries, at('2027-02-08T23:00:00Z'))).toBe(
      at('2027-02-09T00:10:00Z'),
    );
  });

  it('a waiting recurrence: after half the time it waited (5 minutes to 6 hours), never past its deadline', () => {
    const created = at('2027-01-01T12:00:00Z');
    const deadline = created + 7 * 86_400_000;
    expect(recurrenceRecheckAt(created, deadline, created)).toBe(created + 5 * 60_000);
    const hourLater = created + 3_600_000;
    expect(recurrenceRecheckAt(created, deadline, hourLater)).toBe(hourLater + 30 * 60_000);
    const dayLater = created + 86_400_000;
    expect(recurrenceRecheckAt(created, deadline, dayLater)).toBe(dayLater + 6 * 3_600_000);
    expect(recurrenceRecheckAt(created, deadline, deadline - 60_000)).toBe(deadline);
  });
});
