/**
 * An ISPB, the central bank's participant code (docs/contract.md, Amounts and documents): 8 digits or
 * upper-case letters, exactly as bacen/pix-api 2.9.0 writes it (`^[0-9A-Z]{8}$`). The standard
 * opened it to letters with the alphanumeric CNPJ whose root it carries; lower case is not the
 * standard's form and is refused rather than guessed.
 */
export const ISPB_PATTERN = /^[0-9A-Z]{8}$/;

/** The rule in words, for every refusal that names an ISPB field. */
export const ISPB_RULE = '8 digits or upper-case letters';

export function isIspb(value: unknown): value is string {
  return typeof value === 'string' && ISPB_PATTERN.test(value);
}
