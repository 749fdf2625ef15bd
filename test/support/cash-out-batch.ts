/** Batch Cash-Out helpers shared by tests. */
import { expect } from 'vitest';
import type { CashOutBatchAcceptedBody, CashOutBatchBody } from '../../src/api/cash-out-batch/schemas';
import { waitFor } from './cash-in';
import { cashOutBody } from './cash-out';
import type { Integrator } from './harness';
import { OUTCOME_MS } from './wait';

/** `count` valid POST /cash-out bodies, each to a fresh EVP key, amounts 1.00, 1.01, … */
export function batchItems(count: number, overrides: (i: number) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: count }, (_, i) => cashOutBody({ amount: (100 + i) / 100, ...overrides(i) }));
}

export async function createBatch(api: Integrator, items: unknown[], headers: Record<string, string> = {}) {
  const res = await api.signedPost('/cash-out/batch', { items }, headers);
  expect(res.status, await res.clone().text()).toBe(202);
  return (await res.json()) as CashOutBatchAcceptedBody;
}

export async function getBatch(api: Integrator, batchId: string) {
  const res = await api.get(`/cash-out/batch/${encodeURIComponent(batchId)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as CashOutBatchBody;
}

/** Waits until no item of the batch is PROCESSING any more. */
export function batchSettled(api: Integrator, batchId: string, timeoutMs = OUTCOME_MS) {
  return waitFor(
    () => getBatch(api, batchId),
    (b) => b.byStatus.PROCESSING === 0,
    timeoutMs,
    `batch ${batchId} to have no item PROCESSING`,
  );
}
