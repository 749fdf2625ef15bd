/**
 * When a failed webhook attempt is tried again (docs/contract.md, Webhooks): 5 s, 5 min, 30 min, 2 h, 5 h, 10
 * h, 10 h after the previous failure; the eighth failure gives up.
 */
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
] as const;

/** First attempt plus one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How long to wait after the `attempts`-th failed attempt (1-based); undefined = give up. */
export function retryDelayAfter(attempts: number): number | undefined {
  return attempts >= 1 ? RETRY_DELAYS_MS[attempts - 1] : undefined;
}
