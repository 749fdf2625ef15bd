/** Cash-Out helpers shared by tests. */
import { expect } from 'vitest';
import type { CashOutAcceptedBody, CashOutBody } from '../../src/api/cash-out/openapi';
import { waitFor } from './cash-in';
import type { Integrator } from './harness';

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

export function settled(api: Integrator, id: string, statuses = FINAL, timeoutMs = 10_000) {
  return waitFor(
    () => getCashOut(api, id),
    (c) => statuses.includes(c.status),
    timeoutMs,
  );
}
