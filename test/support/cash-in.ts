/** Cash-In helpers shared by lifecycle tests. */
import { expect } from 'vitest';
import type { CashInCreatedBody } from '../../src/api/cash-in/create-cash-in';
import type { CashInBody } from '../../src/api/cash-in/shared';
import { cashInBody, type Integrator } from './harness';

export async function createCashIn(api: Integrator, overrides: Record<string, unknown> = {}) {
  const res = await api.post('/cash-in', cashInBody({ includeQrCodeImage: false, ...overrides }));
  expect(res.status).toBe(201);
  return (await res.json()) as CashInCreatedBody;
}

export async function payCashIn(api: Integrator, id: string, body: Record<string, unknown> = {}) {
  const res = await api.post(`/sandbox/cash-in/${id}/pay`, body);
  expect(res.status).toBe(200);
  return (await res.json()) as CashInBody;
}

export async function getCashIn(api: Integrator, id: string) {
  const res = await api.get(`/cash-in/${encodeURIComponent(id)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as CashInBody;
}

/** Waits for an outcome (test/support/wait.ts); the name the Cash-In tests have always used. */
export { waitUntil as waitFor } from './wait';

export async function problemCode(res: Response): Promise<string> {
  return ((await res.json()) as { code: string }).code;
}
