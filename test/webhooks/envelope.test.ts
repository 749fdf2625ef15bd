import { describe, expect, it } from 'vitest';
import { envelope, eventAtFor } from '../../src/webhooks/envelope';
import { DELIVERY_TIMEOUT_MS } from '../../src/webhooks/post';

describe('webhook envelope (spec §6)', () => {
  const sentAt = Date.parse('2026-03-10T15:04:05.678Z');

  it('is {eventType, eventAt, data} with eventAt the time of sending', () => {
    const data = { transactionId: 'abc', status: 'PAID' };
    expect(envelope('CASHIN_PAID', data, sentAt)).toEqual({
      eventType: 'CASHIN_PAID',
      eventAt: '2026-03-10T12:04:05.678-03:00',
      data,
    });
    expect(Object.keys(envelope('CASHIN_PAID', data, sentAt))).toEqual(['eventType', 'eventAt', 'data']);
  });

  it('uses -03:00 for Cash-In and Cash-Out events and UTC for PIX health events (spec §2.1)', () => {
    expect(eventAtFor('CASHOUT_COMPLETED', sentAt)).toBe('2026-03-10T12:04:05.678-03:00');
    expect(eventAtFor('PIX_INCIDENT_DETECTED', sentAt)).toBe('2026-03-10T15:04:05.678Z');
  });

  it("uses UTC for the operator's reconciliation alert, like the report's checkedAt it carries", () => {
    expect(eventAtFor('RECONCILIATION_BREAKS', sentAt)).toBe('2026-03-10T15:04:05.678Z');
  });

  it('waits 10 s for an answer by default', () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
  });
});
