/**
 * Brazilian tax documents (docs/contract.md, Amounts and documents): a CPF is 11 digits; a CNPJ is 14
 * characters, 12 digits or upper-case letters (the alphanumeric CNPJ the Receita Federal issues
 * since July 2026) then 2 numeric check digits. Both check digits are mod 11; a CNPJ character is
 * worth its ASCII code minus 48 (so a digit is worth itself and `A` is 17), with the numeric
 * CNPJ's weights. Documents whose characters are all equal pass the arithmetic but are never
 * issued, so they are refused too. This module is the one home of that rule: payer and payee
 * documents, CPF/CNPJ Pix keys and onboarding data all go through it.
 */

function checkDigit(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (values[i] as number) * (weights[i] as number);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Receita's value of a CNPJ character: ASCII code minus 48 ('0'..'9' → 0..9, 'A'..'Z' → 17..42). */
const charValue = (c: string) => c.charCodeAt(0) - 48;

const CPF = /^\d{11}$/;
const CNPJ = /^[0-9A-Z]{12}\d{2}$/;

function valuesOf(text: string, shape: RegExp): number[] | undefined {
  if (!shape.test(text)) return undefined;
  return [...text].every((c) => c === text[0]) ? undefined : [...text].map(charValue);
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCpf(text: string): boolean {
  const d = valuesOf(text, CPF);
  return d !== undefined && checkDigit(d, CPF_WEIGHTS_1) === d[9] && checkDigit(d, CPF_WEIGHTS_2) === d[10];
}

/** A CNPJ as written canonically: upper-case, 14 characters, no separators. */
export function isValidCnpj(text: string): boolean {
  const d = valuesOf(text, CNPJ);
  return (
    d !== undefined && checkDigit(d, CNPJ_WEIGHTS_1) === d[12] && checkDigit(d, CNPJ_WEIGHTS_2) === d[13]
  );
}

/**
 * The canonical form of a document as a client may write it: letters upper-cased (a CNPJ's
 * letters are upper-case; a lower-case one means the same company). Nothing else is rewritten:
 * separators stay, and are refused by the validation.
 */
export function normalizeDocument(text: string): string {
  return text.toUpperCase();
}

/** A CPF (11 digits) or a CNPJ (14 characters, alphanumeric or numeric) with valid check digits. */
export function isValidDocument(text: string): boolean {
  return text.length === 11 ? isValidCpf(text) : isValidCnpj(text);
}

/** CPF (11) or CNPJ (14), by length: which field of API Pix (`cpf`/`cnpj`) a valid document goes in. */
export function documentKind(text: string): 'CPF' | 'CNPJ' {
  return text.length === 11 ? 'CPF' : 'CNPJ';
}
