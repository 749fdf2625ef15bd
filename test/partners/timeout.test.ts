/**
 * The partner time-out (src/partners/timeout.ts) around a bank that never answers: money-moving
 * calls come back as a retryable "unanswered" failure (they may have reached the bank), a status
 * read throws (its task runs again later); answers in time and the bank's own errors pass through.
 */
import { describe, expect, it } from 'vitest';
import { BcbApiPixPartner } from '../../src/partners/bcb-api-pix/adapter';
import type { SettlementPartnerPort } from '../../src/partners/port';
import { PartnerTimeout, withTimeout } from '../../src/partners/timeout';

const never = () => new Promise<never>(() => {});

const silentBank: SettlementPartnerPort = {
  ispb: '42273459',
  issuesBrCode: false,
  reportsPayer: false,
  registerCharge: never,
  sendDevolution: never,
  sendPayment: never,
  transferStatus: never,
  devolutionStatus: never,
  sendPayments: never,
  transferStatuses: never,
  callRounds: () => 1,
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

  it('answers unanswered payments at once as a retryable failure per payment and an unread status per id', async () => {
    expect(await port.sendPayments([payment, { ...payment, idempotencyId: 'tx-2' }])).toEqual([
      unanswered,
      unanswered,
    ]);
    const statuses = await port.transferStatuses(['tx-1', 'tx-2']);
    expect(statuses.map((s) => s.state)).toEqual(['UNREAD', 'UNREAD']);
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

  it('payments in concurrent rounds (a bank without a multi-payment API) answer each item alone', async () => {
    const looped = new BcbApiPixPartner({
      ispb: '09089356',
      pixKey: 'k',
      baseUrl: 'https://psp.invalid',
      tokenUrl: 'https://psp.invalid/token',
      clientId: 'id',
      clientSecret: 'secret',
      fetcher: { fetch: async () => new Response(null, { status: 500 }) },
    } as unknown as ConstructorParameters<typeof BcbApiPixPartner>[0]);
    let calls = 0;
    looped.sendPayment = async (r) => {
      calls += 1;
      if (r.idempotencyId === 'tx-2') throw new Error('connection reset');
      return { ok: true, value: { acceptedAt: 1 } };
    };
    looped.transferStatus = async (id) => {
      if (id === 'tx-2') throw new Error('connection reset');
      return { state: 'PENDING' };
    };
    const ids = ['tx-1', 'tx-2', 'tx-3', 'tx-4', 'tx-5'];
    const sent = await looped.sendPayments(ids.map((idempotencyId) => ({ ...payment, idempotencyId })));
    expect(calls).toBe(5);
    expect(sent.map((o) => o.ok)).toEqual([true, false, true, true, true]);
    expect(sent[1]).toEqual(unanswered);
    const read = await looped.transferStatuses(ids);
    expect(read.map((s) => s.state)).toEqual(['PENDING', 'UNREAD', 'PENDING', 'PENDING', 'PENDING']);
  });
});
