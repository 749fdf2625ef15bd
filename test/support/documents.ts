/**
 * Completes a CPF body (9 digits) or a CNPJ body (12 digits or upper-case letters) with its two
 * mod-11 check digits, for fixtures and generators. Written here, apart from src/domain/documents.ts,
 * so the tests that use it check the gateway against an independent reckoning of Receita's rule:
 * each character is worth its ASCII code minus 48, weighted as below.
 */
const CPF_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function checkDigit(values: readonly number[], weights: readonly number[]): number {
  const sum = values.reduce((total, value, i) => total + value * (weights[i] as number), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function withCheckDigits(body: string): string {
  const weights = body.length === 9 ? CPF_WEIGHTS : CNPJ_WEIGHTS;
  const values = [...body].map((c) => c.charCodeAt(0) - 48);
  // The first digit weighs the body with the weights but the first; the second, the body and the first digit.
  const first = checkDigit(values, weights.slice(1));
  return `${body}${first}${checkDigit([...values, first], weights)}`;
}
