/** Cash-Out helpers shared by tests. */
import { runInDurableObject } from 'cloudflare:test';
import { expect } from 'vitest';
import { acceptCashOut, type CreateCashOutInput } from '../../durable-objects/ledger/cash-out/cash-out-ops';
import type { CashOutAcceptedBody } from '../../src/api/cash-out/schemas';
import type { CashOutBody } from '../../src/api/cash-out/shared';
import { waitFor } from './cash-in';
import type { Integrator } from './harness';
import { ledgerContextOf, ledgerStub } from './ledger';
import { OUTCOME_MS } from './wait';

let counter = 0;

export function cashOutBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    amount: 10,
    externalReference: `payout-${Date.now()}-${counter}`,
    description: 'Saque',
    payee: {
      name: 'Ana Beneficiária',
      document: '12345678909',
      destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
    },
    ...overrides,
  };
}

export const magicKey = (code: string) => ({
  type: 'PIX',
  pixKeyType: 'EMAIL',
  pixKey: `${code.toLowerCase()}@sandbox.pix`,
});

export async function deposit(api: Integrator, amount: number, accountIndex = 0): Promise<void> {
  const account = api.client.accounts.filter((a) => a.type === 'TRANSACTIONAL')[accountIndex]!;
  const res = await api.post(`/sandbox/accounts/${account.number}/deposit`, { amount });
  expect([200, 201]).toContain(res.status);
}

export async function createCashOut(
  api: Integrator,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const res = await api.signedPost('/cash-out', cashOutBody(overrides), headers);
  expect(res.status).toBe(202);
  return (await res.json()) as CashOutAcceptedBody;
}

export async function getCashOut(api: Integrator, id: string) {
  const res = await api.get(`/cash-out/${encodeURIComponent(id)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as CashOutBody;
}

const FINAL = ['COMPLETED', 'CANCELLED', 'REFUNDED'];

export function settled(api: Integrator, id: string, statuses = FINAL, timeoutMs = OUTCOME_MS) {
  return waitFor(
    () => getCashOut(api, id),
    (c) => statuses.includes(c.status),
    timeoutMs,
    `Cash-Out ${id} to be ${statuses.join(' or ')}`,
  );
}

/** `count` Cash-Outs to fresh EVP keys (the one at `failing`, if any, to a key the sandbox refuses). */
export function batchInputs(count: number, failing?: number): CreateCashOutInput[] {
  return Array.from({ length: count }, (_, i) => ({
    amountCents: 500 + i,
    externalReference: `batch-${i}-${crypto.randomUUID().slice(0, 8)}`,
    payee: {
      name: 'Ana',
      document: '12345678909',
      destination:
        i === failing
          ? { type: 'PIX', pixKeyType: 'EMAIL', pixKey: 'payee_account_unavailable@sandbox.pix' }
          : { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
    },
  }));
}

/**
 * Accepts Cash-Outs in one synchronous block inside the client's object, then wakes its alarm: the
 * executor can only see them together, so they are executed in one batch. Their transactionIds.
 */
export function acceptTogether(api: Integrator, inputs: CreateCashOutInput[]): Promise<string[]> {
  return runInDurableObject(ledgerStub(api.client.clientId), async (instance, state): Promise<string[]> => {
    const ledger = ledgerContextOf(instance);
    // No Cash-Out is archived in these clients: acceptCashOut awaits nothing but settled promises,
    // so no other event of the object runs between the accepts.
    const ids: string[] = [];
    for (const input of inputs) {
      const result = await acceptCashOut(ledger, input, () => {});
      if (!result.ok) throw new Error(JSON.stringify(result));
      ids.push(result.body.transactionId);
    }
    await state.storage.setAlarm(Date.now());
    return ids;
  });
}
