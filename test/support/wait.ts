/**
 * Waiting for an outcome in the Workers tests (a queue's delivery, an alarm's work, a partner's
 * answer): read until it is there, and fail only when a hang is the one explanation left. No test
 * asserts how fast anything is; speed is measured by `npm run bench`.
 */

/**
 * How long an outcome may take before it is called a hang: a busy two-core machine running four
 * test servers takes seconds for what takes milliseconds alone; this is far beyond that and within
 * a test's two minutes (vitest.config.ts).
 */
export const OUTCOME_MS = 60_000;

/**
 * Reads `probe()` every 100 ms until `done` holds for its value, and returns that value. Past `ms`
 * it throws, naming what it waited for (`what`, else the `done` rule as written) and the last value.
 */
export async function waitUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  ms = OUTCOME_MS,
  what = done.toString(),
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const last = JSON.stringify(value)?.slice(0, 1_000);
      throw new Error(`waited ${ms / 1000} s for ${what}; last value: ${last}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
