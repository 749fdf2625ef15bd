/**
 * Batch calls of the settlement-partner port for banks that take one payment per request: the
 * batch is sent a few calls at a time, and a call that throws answers for its own item only.
 */
import type { BatchedStatus, PartnerOutcome, PaymentRequest, TransferStatus } from './port';

/** Calls to one bank in flight at once while a batch is looped. */
export const BATCH_CONCURRENCY = 4;

async function eachSettled<T, R>(
  items: readonly T[],
  call: (item: T) => Promise<R>,
  failed: (error: unknown) => R,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        results[i] = await call(items[i] as T);
      } catch (error) {
        results[i] = failed(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, items.length) }, worker));
  return results;
}

/** A payment that threw may have reached the bank: retryable, so recovery asks before resending. */
export const sendEach = (
  send: (request: PaymentRequest) => Promise<PartnerOutcome<{ acceptedAt: number }>>,
  requests: readonly PaymentRequest[],
) =>
  eachSettled(requests, send, () => ({
    ok: false as const,
    failureCode: 'PROVIDER_UNAVAILABLE',
    retryable: true,
  }));

export const statusEach = (
  status: (idempotencyId: string) => Promise<TransferStatus>,
  ids: readonly string[],
): Promise<BatchedStatus[]> =>
  eachSettled<string, BatchedStatus>(ids, status, (error) => ({
    state: 'UNREAD',
    reason: error instanceof Error ? error.message : String(error),
  }));
