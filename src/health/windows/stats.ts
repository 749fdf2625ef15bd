// Small robust-statistics helpers. Rings are plain number arrays so state stays JSON-serialisable.

/** 1.4826 * MAD estimates the standard deviation of normally distributed data. */
export const MAD_TO_SIGMA = 1.4826;

let scratch = new Float64Array(64);

/** Median without allocating: numeric typed-array sort on a reused scratch buffer. */
export function median(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  if (n === 1) return values[0]!;
  if (scratch.length < n) scratch = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) scratch[i] = values[i]!;
  const s = scratch.subarray(0, n).sort();
  const mid = n >> 1;
  return n % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function mad(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const m = median(values);
  if (scratch.length < n) scratch = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) scratch[i] = Math.abs(values[i]! - m);
  const s = scratch.subarray(0, n).sort();
  const mid = n >> 1;
  return n % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
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

/** Standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9): here for p <= 0.5. */
function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771966, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
