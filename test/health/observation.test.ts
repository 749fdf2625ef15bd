// The decisions §7 observation shape and the UTC 5-minute windows.
import { describe, expect, it } from 'vitest';
import { FAILURE_CODES } from '../../src/domain/failure-codes';
import { failureCodeIndex } from '../../src/health/windows/code-layers';
import { parseInstant, parseObservation } from '../../src/health/windows/observation';
import { isoZ, WINDOW_MS, windowIndexOf, windowStartMs } from '../../src/health/windows/window';

const valid = {
  at: '2026-11-04T14:03:27.125Z',
  clientId: 'client-a',
  customerId: 'cust-1',
  operation: 'CASH_OUT',
  partnerIspb: '90000001',
  institutionIspb: '80000002',
  event: 'FAILED',
  failureCode: 'PAYEE_BANK_UNAVAILABLE',
  latencyMs: 2400,
};

describe('parseObservation', () => {
  it('accepts the full shape and the minimal one, ignoring unknown fields', () => {
    const r = parseObservation({ ...valid, extra: true });
    expect(r).toEqual({ ok: true, value: valid, atMs: Date.parse(valid.at) });
    const minimal = {
      at: '2026-11-04T14:03:27Z',
      clientId: 'c',
      operation: 'CASH_IN',
      partnerIspb: '90000001',
      event: 'CREATED',
    };
    expect(parseObservation(minimal)).toMatchObject({ ok: true, value: minimal });
  });

  it.each([
    [null, 'not an object'],
    [[valid], 'not an object'],
    [{ ...valid, at: undefined }, 'at:'],
    [{ ...valid, at: '2026-11-04 14:03:27' }, 'at:'],
    [{ ...valid, at: '2026-11-04T14:03:27' }, 'at:'],
    [{ ...valid, at: '2026-13-45T14:03:27Z' }, 'at:'],
    [{ ...valid, clientId: '' }, 'clientId'],
    [{ ...valid, customerId: 7 }, 'customerId'],
    [{ ...valid, operation: 'REFUND' }, 'operation'],
    [{ ...valid, partnerIspb: '1234' }, 'partnerIspb'],
    [{ ...valid, institutionIspb: 12345678 }, 'institutionIspb'],
    [{ ...valid, event: 'PAID' }, 'event'],
    [{ ...valid, failureCode: '' }, 'failureCode'],
    [{ ...valid, latencyMs: -1 }, 'latencyMs'],
    [{ ...valid, latencyMs: 'fast' }, 'latencyMs'],
  ])('rejects %j', (input, field) => {
    const r = parseObservation(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(field);
  });

  it('parses canonical and offset timestamps to the same instant as Date.parse', () => {
    for (const t of [
      '2026-11-04T14:03:27.125Z',
      '2026-11-04T14:59:59.999Z',
      '2026-11-04T15:00:00.000Z',
      '2026-11-04T11:03:27.125-03:00',
      '2026-11-04T14:03:27Z',
      '2026-11-04T14:03:27.1Z',
    ]) {
      expect(parseInstant(t)).toBe(Date.parse(t));
    }
    expect(parseInstant('2026-11-04T14:3:27.125Z')).toBeNaN();
    expect(parseInstant('2026-11-04T14:03:2x.125Z')).toBeNaN();
  });

  it('maps unknown or missing failure codes to PROCESSING_ERROR (§2.3)', () => {
    expect(FAILURE_CODES).toHaveLength(18);
    expect(failureCodeIndex('SOMETHING_NEW')).toBe(FAILURE_CODES.indexOf('PROCESSING_ERROR'));
    expect(failureCodeIndex(undefined)).toBe(FAILURE_CODES.indexOf('PROCESSING_ERROR'));
    expect(failureCodeIndex('PIX_KEY_NOT_FOUND')).toBe(FAILURE_CODES.indexOf('PIX_KEY_NOT_FOUND'));
  });
});

describe('windows', () => {
  it('are 5 minutes aligned to UTC', () => {
    const at = Date.parse('2026-11-04T14:04:59.999Z');
    expect(isoZ(windowStartMs(windowIndexOf(at)))).toBe('2026-11-04T14:00:00Z');
    expect(isoZ(windowStartMs(windowIndexOf(at + 1)))).toBe('2026-11-04T14:05:00Z');
    expect(WINDOW_MS).toBe(300_000);
  });
});
