/**
 * A budget of failures (wrong credentials) per source: `burst` failures at once, then one more each
 * `intervalMs`. Kept as the instant the debt is paid off (GCRA), so a source costs one number and
 * checking it needs no history.
 */
export interface FailureBudget {
  burst: number;
  intervalMs: number;
}

/** Milliseconds until a source whose debt is paid off at `paidAt` may try again (0: it may now). */
export function failureBlockedFor(budget: FailureBudget, paidAt: number, now: number): number {
  const debt = Math.max(0, paidAt - now);
  return Math.max(0, debt - (budget.burst - 1) * budget.intervalMs);
}

/** The new paid-off instant after one more failure at `now`. */
export function afterFailure(budget: FailureBudget, paidAt: number, now: number): number {
  return Math.max(paidAt, now) + budget.intervalMs;
}

/** The paid-off instant once a reserved failure turns out not to be one (the secret was right). */
export function refundFailure(budget: FailureBudget, paidAt: number): number {
  return paidAt - budget.intervalMs;
}
