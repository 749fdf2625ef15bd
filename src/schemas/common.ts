/**
 * Field schemas shared by request bodies. Each is the single source of the rule for validation and
 * for the OpenAPI document.
 */
import * as v from 'valibot';
import { isValidDocument } from '../domain/documents';
import { ISPB_PATTERN, ISPB_RULE } from '../domain/ispb';
import { centsFromAmount, MAX_AMOUNT } from '../domain/money';
import { named } from './named';

/**
 * docs/contract.md, Amounts and documents: the largest amount BR Code field 54 holds; every balance stays an
 * exact integer.
 */
export const AMOUNT_MAX_MESSAGE = `amount must be at most ${MAX_AMOUNT.toFixed(2)}`;

/**
 * At most 2 decimal places, judged only for amounts `judged` keeps and up to the maximum: an amount
 * another rule refuses (1e300, 0.001) gets that rule's message alone, one precise message per field.
 */
export const amountDecimals = (judged: (n: number) => boolean) =>
  v.check(
    (n: number) => !judged(n) || n > MAX_AMOUNT || centsFromAmount(n) !== undefined,
    'amount must have at most 2 decimal places',
  );

export const AmountSchema = named(
  'Amount',
  v.pipe(
    v.number('amount must be a number'),
    v.minValue(0.01, 'amount must be at least 0.01'),
    v.maxValue(MAX_AMOUNT, AMOUNT_MAX_MESSAGE),
    amountDecimals((n) => n >= 0.01),
  ),
);

/**
 * A CPF (11 digits) or a CNPJ (12 digits or letters, then 2 digits: the alphanumeric CNPJ included),
 * without separators; letters are read upper-case, which is how the document is kept and sent on.
 */
export const DocumentSchema = named(
  'Document',
  v.pipe(
    v.string('document must be a string'),
    v.regex(
      /^(\d{11}|[0-9A-Z]{12}\d{2})$/i,
      'document must be a CPF (11 digits) or a CNPJ (14 characters: 12 digits or letters, then 2 digits), without separators',
    ),
    v.toUpperCase(),
    v.check(isValidDocument, 'document must be a CPF or CNPJ whose check digits are valid'),
  ),
);

/** An ISPB as bacen/pix-api 2.9.0 writes it (docs/contract.md, Amounts and documents). */
export const IspbSchema = v.pipe(
  v.string('ispb must be a string'),
  v.regex(ISPB_PATTERN, `ispb must be ${ISPB_RULE}`),
);

/** The `{ispb}` of /admin/partners/{ispb}/...: malformed is a 400 naming `ispb`, never a 404. */
export const PartnerPathSchema = v.object({ ispb: IspbSchema });

export const ExternalReferenceSchema = named(
  'ExternalReference',
  v.pipe(
    v.string('externalReference must be a string'),
    v.minLength(1, 'externalReference must not be empty'),
    v.maxLength(50, 'externalReference must have at most 50 characters'),
  ),
);

export const NameSchema = named(
  'Name',
  v.pipe(
    v.string('name must be a string'),
    v.trim(),
    v.minLength(1, 'name must not be empty'),
    v.maxLength(140, 'name must have at most 140 characters'),
  ),
);

export const HttpUrlSchema = named(
  'HttpUrl',
  v.pipe(
    v.string('must be a URL'),
    v.maxLength(2048, 'must have at most 2048 characters'),
    v.url('must be an absolute URL'),
    v.check((u) => /^https?:\/\//i.test(u), 'must be an http or https URL'),
  ),
);
