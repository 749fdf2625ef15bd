/**
 * The partner time-out (src/partners/timeout.ts) around a bank that never answers: money-moving
 * calls come back as a retryable "unanswered" failure (they may have reached the bank), a status
 * read throws (its task runs again later); answers in time and the bank's own errors pass through.
 */
import { describe, expect, it } from 'vitest';
import type { SettlementPartnerPort } from '../../src/partners/port';
import { PartnerTimeout, withTimeout } from '../../src/partners/timeout';

const never = () => new Promise<never>(() => {});

const silentBank: SettlementPartnerPort = {
  ispb: '42273459',
  registerCharge: never,
  sendDevolution: never,
  sendPayment: never,
  transferStatus: never,
  devolutionStatus: never,
};

const payment = {
  idempotencyId: 'tx-1',
  amountCents: 100,
  payee: {
    name: 'Ana',
    document: '12345678909',
    destination: { type: 'PIX' as const, pixKeyType: 'EVP', pixKey: 'k' },
  },
  description: null,
};

describe('withTimeout', () => {
  const port = withTimeout(silentBank, 20);
  const unanswered = { ok: false, failureCode: 'PROVIDER_UNAVAILABLE', retryable: true };

  it('answers an unanswered payment, devolution or charge as a retryable failure', async () => {
    expect(await port.sendPayment(payment)).toEqual(unanswered);
    expect(
      await port.sendDevolution({ endToEndId: 'D1', originalEndToEndId: 'E1', amountCents: 100 }),
    ).toEqual(unanswered);
    expect(await port.registerCharge({ txid: 't', amountCents: 100, expiresAt: 0 })).toEqual(unanswered);
  });

  it('throws on an unanswered status read', async () => {
    await expect(port.transferStatus('tx-1')).rejects.toBeInstanceOf(PartnerTimeout);
  });

  it('passes answers in time and the bank’s own errors through', async () => {
    const fast = withTimeout(
      {
        ...silentBank,
        transferStatus: async () => ({ state: 'PENDING' }),
        sendPayment: async () => {
          throw new Error('connection reset');
        },
      },
      1_000,
    );
    expect(await fast.transferStatus('tx-1')).toEqual({ state: 'PENDING' });
    await expect(fast.sendPayment(payment)).rejects.toThrow('connection reset');
  });
});
