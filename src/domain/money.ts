/**
 * Money is integer centavos everywhere inside the gateway; JSON carries BRL decimals with at most
 * two places. Conversion happens only here, through the number's decimal string, never through
 * floating-point arithmetic.
 */
export type Cents = number;

/**
 * docs/contract.md, Amounts and documents: the largest amount a client may send (BR Code field 54 holds 13
 * characters).
 */
export const MAX_AMOUNT = 9_999_999_999.99;
export const MAX_AMOUNT_CENTS: Cents = 999_999_999_999;

const DECIMAL_BRL = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Parses a JSON amount (BRL, ≥ 0, at most 2 decimals) into centavos; undefined when not exact. */
export function centsFromAmount(value: unknown): Cents | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const match = DECIMAL_BRL.exec(String(Math.abs(value)));
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return undefined;
  return value < 0 ? -cents : cents;
}

/** BRL decimal for JSON output: the division of an integer by 100 prints exactly. */
export function amountFromCents(cents: Cents): number {
  return cents / 100;
}

/** "1234.50" style text with exactly two decimals (BR Code field 54, logs). */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
