import { describe, expect, it } from 'vitest';
import { amountFromCents, centsFromAmount, formatCents } from '../../src/domain/money';
import { parseBound, parsePeriod } from '../../src/domain/period';
import { brtDate, formatBrt, formatUtc } from '../../src/domain/time';

describe('money', () => {
  it('parses BRL amounts with at most two decimals into exact centavos', () => {
    expect(centsFromAmount(0.01)).toBe(1);
    expect(centsFromAmount(10.1)).toBe(1010);
    expect(centsFromAmount(150.25)).toBe(15025);
    expect(centsFromAmount(0.29)).toBe(29); // 0.29 * 100 is 28.999… in floating point
    expect(centsFromAmount(1.005)).toBeUndefined();
    expect(centsFromAmount(-3.5)).toBe(-350);
    expect(centsFromAmount(1e21)).toBeUndefined();
    expect(centsFromAmount(Number.NaN)).toBeUndefined();
    expect(centsFromAmount('10')).toBeUndefined();
  });

  it('prints centavos back without drift', () => {
    expect(amountFromCents(29)).toBe(0.29);
    expect(amountFromCents(1010)).toBe(10.1);
    expect(formatCents(1)).toBe('0.01');
    expect(formatCents(123456)).toBe('1234.56');
    expect(formatCents(-50)).toBe('-0.50');
  });
});

describe('time', () => {
  it('formats -03:00 with milliseconds and UTC with Z', () => {
    const ms = Date.UTC(2026, 10, 21, 2, 30, 5, 7);
    expect(formatBrt(ms)).toBe('2026-11-20T23:30:05.007-03:00');
    expect(formatUtc(ms)).toBe('2026-11-21T02:30:05.007Z');
    expect(brtDate(ms)).toBe('2026-11-20');
  });
});

describe('period filters (spec §4.1)', () => {
  it('plain dates span the whole day in America/Sao_Paulo, inclusive', () => {
    expect(formatBrt(parseBound('2026-03-01', 'from')!)).toBe('2026-03-01T00:00:00.000-03:00');
    expect(formatBrt(parseBound('2026-03-01', 'to')!)).toBe('2026-03-01T23:59:59.999-03:00');
  });

  it('reads a timestamp without offset as -03:00, keeps explicit offsets, covers the whole second in `to`', () => {
    expect(formatUtc(parseBound('2026-03-01T10:00:00', 'from')!)).toBe('2026-03-01T13:00:00.000Z');
    expect(formatUtc(parseBound('2026-03-01T10:00:00', 'to')!)).toBe('2026-03-01T13:00:00.999Z');
    expect(formatUtc(parseBound('2026-03-01T10:00:00Z', 'from')!)).toBe('2026-03-01T10:00:00.000Z');
    expect(formatUtc(parseBound('2026-03-01T10:00:00.250+01:00', 'to')!)).toBe('2026-03-01T09:00:00.250Z');
  });

  it('rejects impossible dates and malformed text', () => {
    for (const bad of [
      '2026-02-30',
      '2026-13-01',
      '2026-1-1',
      '2026-03-01T24:00:00',
      '2026-03-01T10:00',
      'now',
      '',
    ]) {
      expect(parseBound(bad, 'from'), bad).toBeUndefined();
    }
    expect(parseBound('2024-02-29', 'from')).toBeDefined();
  });

  it('requires both bounds and from ≤ to', () => {
    expect(parsePeriod(undefined, '2026-01-01')).toEqual({
      ok: false,
      errors: { from: [expect.any(String)] },
    });
    expect(parsePeriod('2026-01-02', '2026-01-01').ok).toBe(false);
    expect(parsePeriod('2026-01-01', '2026-01-01').ok).toBe(true);
  });
});
