/**
 * API Pix money is a decimal string with exactly two fraction digits (`^\d{1,10}\.\d{2}$`, schema
 * `valor`). Internally money is integer centavos; both directions are exact string arithmetic,
 * never a float.
 */
const DECIMAL = /^(\d{1,10})\.(\d{2})$/;

export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not a centavos amount: ${cents}`);
  const s = String(cents).padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** Centavos of a standard decimal string, or undefined when the partner sent something else. */
export function decimalToCents(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DECIMAL.exec(value);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number(m[2]);
}
