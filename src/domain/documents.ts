/**
 * Brazilian tax documents (docs/contract.md, Amounts and documents): a CPF is 11 digits and a CNPJ 14, each
 * ending in two check digits computed modulo 11. Documents whose digits are all equal pass the arithmetic but
 * are never issued, so they are refused too.
 */

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits[i] as number) * (weights[i] as number);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

function digitsOf(text: string, length: number): number[] | undefined {
  if (text.length !== length || !/^\d+$/.test(text)) return undefined;
  const digits = [...text].map(Number);
  return digits.every((d) => d === digits[0]) ? undefined : digits;
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCpf(text: string): boolean {
  const d = digitsOf(text, 11);
  return d !== undefined && checkDigit(d, CPF_WEIGHTS_1) === d[9] && checkDigit(d, CPF_WEIGHTS_2) === d[10];
}

export function isValidCnpj(text: string): boolean {
  const d = digitsOf(text, 14);
  return (
    d !== undefined && checkDigit(d, CNPJ_WEIGHTS_1) === d[12] && checkDigit(d, CNPJ_WEIGHTS_2) === d[13]
  );
}

/** A CPF (11 digits) or a CNPJ (14 digits) with valid check digits. */
export function isValidDocument(text: string): boolean {
  return text.length === 11 ? isValidCpf(text) : isValidCnpj(text);
}
