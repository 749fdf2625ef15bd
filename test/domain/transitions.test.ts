/**
 * The pure transition rules (src/domain/transitions.ts) and the Cash-Out rules of src/domain/
 * cash-out.ts, each alone: refund refusals per state, cancellation and expiry of unpaid Cash-Ins
 * only, approval at the threshold, withdrawal limits in spec §8 order over running totals, routing
 * and payee identity.
 */
import { describe, expect, it } from 'vitest';
import { choosePartner, destinationKey, limitViolation } from '../../src/domain/cash-out';
import { needsApproval, refundRefusal, unpaidOnly } from '../../src/domain/transitions';

const paid = { status: 'PAID', refundState: null, endToEndId: 'E60701190202611251200abcdefghijk' };

describe('refund refusals', () => {
  it.each([
    ['AWAITING_PAYMENT', 'The Cash-In is not paid yet'],
    ['EXPIRED', 'The Cash-In expired without payment'],
    ['CANCELLED', 'The Cash-In was cancelled'],
    ['REFUNDED', 'The Cash-In was already refunded'],
  ])('refuses a %s Cash-In', (status, detail) => {
    expect(refundRefusal({ ...paid, status })).toEqual({ code: 'REFUND_NOT_ALLOWED', detail });
  });

  it('refuses a second refund while one is in progress, and one without the payment end-to-end id', () => {
    expect(refundRefusal({ ...paid, refundState: 'PROCESSING' })?.detail).toMatch(/already in progress/);
    expect(refundRefusal({ ...paid, endToEndId: null })?.code).toBe('MISSING_E2E');
  });

  it('allows a paid Cash-In, also after a failed refund', () => {
    expect(refundRefusal(paid)).toBeUndefined();
    expect(refundRefusal({ ...paid, refundState: 'FAILED' })).toBeUndefined();
  });
});

describe('cancellation and expiry', () => {
  it('only from AWAITING_PAYMENT', () => {
    expect(unpaidOnly('AWAITING_PAYMENT', 'cancelled')).toBeUndefined();
    expect(unpaidOnly('PAID', 'cancelled')).toEqual({
      code: 'RULE_VIOLATION',
      detail: 'Only AWAITING_PAYMENT can be cancelled; this Cash-In is PAID',
    });
    expect(unpaidOnly('CANCELLED', 'expire')?.detail).toBe(
      'Only AWAITING_PAYMENT can expire; this Cash-In is CANCELLED',
    );
  });
});

describe('Cash-Out rules', () => {
  it('needs approval at or above the threshold, never without one', () => {
    expect(needsApproval(5_000, 5_000)).toBe(true);
    expect(needsApproval(4_999, 5_000)).toBe(false);
    expect(needsApproval(1_000_000, null)).toBe(false);
    expect(needsApproval(1_000_000, undefined)).toBe(false);
    expect(needsApproval(0, 0)).toBe(true);
  });

  it('checks the limits in spec §8 order against the running totals, the limit itself allowed', () => {
    const limits = { perTransaction: 1_000, daily: 5_000, monthly: 20_000, perPayeeDaily: 2_000 };
    const none = { day: 0, month: 0, payeeDay: 0 };
    expect(limitViolation(1_000, limits, none)).toBeUndefined();
    expect(limitViolation(1_001, limits, none)).toBe('AMOUNT_ABOVE_MAXIMUM');
    expect(limitViolation(1_000, limits, { day: 4_000, month: 0, payeeDay: 0 })).toBeUndefined();
    expect(limitViolation(1_000, limits, { day: 4_001, month: 19_500, payeeDay: 1_500 })).toBe(
      'DAILY_LIMIT_EXCEEDED',
    );
    expect(limitViolation(1_000, limits, { day: 0, month: 19_001, payeeDay: 1_500 })).toBe(
      'PERIOD_LIMIT_EXCEEDED',
    );
    expect(limitViolation(1_000, limits, { day: 0, month: 0, payeeDay: 1_001 })).toBe('PAYEE_LIMIT_EXCEEDED');
    expect(limitViolation(10 ** 9, {}, { day: 10 ** 9, month: 10 ** 9, payeeDay: 10 ** 9 })).toBeUndefined();
  });

  it('routes to a healthy partner that covers the amount, then the most available, then the client order', () => {
    const c = (ispb: string, available: number, degraded = false) => ({ ispb, available, degraded });
    expect(choosePartner([c('A', 100), c('B', 300), c('C', 300)], 200)).toBe('B');
    expect(choosePartner([c('A', 900, true), c('B', 300)], 200)).toBe('B');
    expect(choosePartner([c('A', 900, true)], 200)).toBe('A');
    expect(choosePartner([c('A', 100)], 200)).toBeUndefined();
  });

  it('knows one payee however the client wrote it (decisions §5)', () => {
    const key = (pixKeyType: string, pixKey: string) =>
      destinationKey({ type: 'PIX', pixKeyType, pixKey } as Parameters<typeof destinationKey>[0]);
    expect(key('EMAIL', ' Ana@Example.com ')).toBe(key('EMAIL', 'ana@example.com'));
    expect(key('PHONE', '+55 (11) 99999-8888')).toBe(key('PHONE', '11999998888'));
    const account = (branch: string, acc: string) =>
      destinationKey({
        type: 'BANK_ACCOUNT',
        bankAccount: { ispb: '60701190', branch, account: acc, accountType: 'CACC' },
      } as Parameters<typeof destinationKey>[0]);
    expect(account('0001', '0012345-6')).toBe(account('1', '123456'));
    expect(account('0001', '12345-6')).not.toBe(account('0002', '12345-6'));
  });
});
