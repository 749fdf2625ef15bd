/**
 * Concurrent rounds of partner calls, for banks that take one payment per request: many payments
 * (or status reads) are sent a few calls at a time, and a call that throws answers for its own item only.
 */
import type { PartnerOutcome, PaymentRequest, StatusOrUnread, TransferStatus } from './port';

/** Calls to one bank in flight at once: each round of calls is this many wide. */
export const CALLS_IN_FLIGHT = 4;

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
  await Promise.all(Array.from({ length: Math.min(CALLS_IN_FLIGHT, items.length) }, worker));
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
): Promise<StatusOrUnread[]> =>
  eachSettled<string, StatusOrUnread>(ids, status, (error) => ({
    state: 'UNREAD',
    reason: error instanceof Error ? error.message : String(error),
  }));
