// bench:footprint's fit (docs/benchmark.md, "Footprint"): each client's live bytes and archived
// transactions against the simulated day, least squares, then bytes(day) = F + b × transactions
// through two clients whose transactions a day differ.

/** Least squares of ys on xs: slope, intercept and the slope's standard error (NaN below 2 or 3 points). */
export function leastSquares(xs, ys) {
  const n = xs.length;
  if (n < 2) return { slope: Number.NaN, intercept: Number.NaN, se: Number.NaN };
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let k = 0; k < n; k++) {
    sxx += (xs[k] - mx) ** 2;
    sxy += (xs[k] - mx) * (ys[k] - my);
  }
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const residual = xs.reduce((a, x, k) => a + (ys[k] - intercept - slope * x) ** 2, 0);
  return { slope, intercept, se: n > 2 ? Math.sqrt(residual / (n - 2) / sxx) : Number.NaN };
}

/**
 * One client's growth over its days `{ day, bytes, archivedTx }`: s bytes a day (± se) for t
 * transactions archived a day.
 */
export function dailySlope(days) {
  const x = days.map((p) => p.day);
  const bytes = leastSquares(
    x,
    days.map((p) => p.bytes),
  );
  const tx = leastSquares(
    x,
    days.map((p) => p.archivedTx),
  );
  return { s: bytes.slope, se: bytes.se, t: tx.slope };
}

/** F (bytes a day whatever the volume) and b (bytes per archived transaction, ± bSe) from two slopes. */
export function fixedAndPerTransaction(one, two) {
  if (!two || one.t === two.t) return { F: Number.NaN, b: Number.NaN, bSe: Number.NaN };
  const b = (one.s - two.s) / (one.t - two.t);
  return { F: one.s - b * one.t, b, bSe: Math.sqrt(one.se ** 2 + two.se ** 2) / Math.abs(one.t - two.t) };
}
