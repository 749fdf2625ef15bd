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
