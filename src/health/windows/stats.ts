// Small robust-statistics helpers. Rings are plain number arrays so state stays JSON-serialisable.

/** 1.4826 * MAD estimates the standard deviation of normally distributed data. */
export const MAD_TO_SIGMA = 1.4826;

let scratch = new Float64Array(64);

/** The middle of `n` sorted values (the mean of the two middle ones when `n` is even); reads within bounds. */
function middle(s: Float64Array, n: number): number {
  const mid = n >> 1;
  return n % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Median without allocating: numeric typed-array sort on a reused scratch buffer. */
export function median(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  if (n === 1) return values[0] ?? Number.NaN;
  if (scratch.length < n) scratch = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) scratch[i] = values[i] ?? 0;
  const s = scratch.subarray(0, n).sort();
  return middle(s, n);
}

export function mad(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const m = median(values);
  if (scratch.length < n) scratch = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) scratch[i] = Math.abs((values[i] ?? 0) - m);
  const s = scratch.subarray(0, n).sort();
  return middle(s, n);
}

/** A fixed-capacity ring buffer stored as `{ v: number[], p: next write position }`. */
export interface Ring {
  v: number[];
  p: number;
}

export function newRing(): Ring {
  return { v: [], p: 0 };
}

export function ringPush(ring: Ring, value: number, capacity: number): void {
  if (ring.v.length < capacity) ring.v.push(value);
  else ring.v[ring.p] = value;
  ring.p = (ring.p + 1) % capacity;
}

/**
 * Dispersion factor from recent standardised residuals: 1.4826*MAD, never below 1 (the Poisson or binomial
 * noise model is the floor) and capped so one noisy period cannot blind an entity for hours.
 */
export function kappa(ring: Ring, minValues: number, cap: number): number {
  if (ring.v.length < minValues) return 1;
  const k = MAD_TO_SIGMA * mad(ring.v);
  return Math.max(1, Math.min(cap, k));
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * The pooled test's z: the exact Poisson lower tail P(X <= observed | expected), as a normal quantile.
 * The pooled counts are small (9-30 expected), where the normal approximation is conservative on the
 * low side (3 seen of 11 expected: z 2.4 where the exact tail is 2.6; 8 of 21.6: 2.9 where it is 3.2),
 * and a cohort of small banks is exactly the fault that lives at those counts. The false-alarm rate of
 * z 3 stays what it says (p = 0.00135), so this earns power without loosening the test.
 */
export function poissonLowerZ(observed: number, expected: number): number {
  if (observed >= expected) return (observed - expected) / Math.sqrt(expected);
  let term = Math.exp(-expected);
  let p = term;
  for (let k = 1; k <= observed; k++) {
    term *= expected / k;
    p += term;
  }
  return normalQuantile(Math.min(0.5, Math.max(1e-15, p)));
}

type Coefficients6 = readonly [number, number, number, number, number, number];
// Acklam's coefficients for normalQuantile, typed as fixed-length tuples so every read is a number.
const A: Coefficients6 = [
  -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
  2.506628277459239,
];
const B: readonly [number, number, number, number, number] = [
  -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771966, -13.28068155288572,
];
const C: Coefficients6 = [
  -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
];
const D: readonly [number, number, number, number] = [
  0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416,
];

/** Standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9): here for p <= 0.5. */
function normalQuantile(p: number): number {
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) /
      ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) /
    (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1)
  );
}
