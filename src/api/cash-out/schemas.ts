import * as v from 'valibot';
import { isValidDocument, normalizeDocument } from '../../domain/documents';
import { centsFromAmount } from '../../domain/money';
import {
  AmountSchema,
  DocumentSchema,
  ExternalReferenceSchema,
  HttpUrlSchema,
  IspbSchema,
  NameSchema,
} from '../../schemas/common';
import { BrtTimestamp, TransactionIdentity } from '../../schemas/fields';
import { describeCheck, named } from '../../schemas/named';

const PIX_KEY_FORMATS: Record<string, [RegExp, string]> = {
  CPF: [/^\d{11}$/, 'a CPF key is 11 digits'],
  CNPJ: [/^[0-9A-Za-z]{12}\d{2}$/, 'a CNPJ key is 14 characters: 12 digits or letters, then 2 digits'],
  EMAIL: [
    /^(?=.{3,77}$)[^\s@]+@[^\s@]+\.[^\s@]+$/,
    'an EMAIL key is an e-mail address of at most 77 characters',
  ],
  PHONE: [
    /^\+55\d{10,11}$/,
    'a PHONE key is +55 and 10 or 11 digits (area code and number), e.g. +5511987654321',
  ],
  EVP: [/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'an EVP key is a UUID'],
};

/** Says how to write the key: the common mistakes (no +55, a CPF or CNPJ with its separators) by name. */
function pixKeyFormatMessage(issue: { input: unknown }): string {
  const { pixKeyType, pixKey } = issue.input as { pixKeyType: string; pixKey: string };
  const format = PIX_KEY_FORMATS[pixKeyType];
  if (!format) return 'pixKey does not match pixKeyType';
  if (pixKeyType === 'PHONE' && /^\d{10,11}$/.test(pixKey)) return `${format[1]}: add +55 in front`;
  if ((pixKeyType === 'CPF' || pixKeyType === 'CNPJ') && /[.\-/\s]/.test(pixKey)) {
    return `${format[1]}, written without dots, slash, hyphen or spaces`;
  }
  return format[1];
}

const PixDestination = named(
  'PixDestination',
  v.pipe(
    v.strictObject({
      type: v.literal('PIX'),
      pixKeyType: v.picklist(
        ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'],
        'pixKeyType must be CPF, CNPJ, EMAIL, PHONE or EVP',
      ),
      pixKey: v.pipe(
        v.string('pixKey must be a string'),
        v.minLength(1, 'pixKey is required'),
        v.maxLength(77),
      ),
    }),
    v.forward(
      v.check((d) => {
        const format = PIX_KEY_FORMATS[d.pixKeyType];
        return format ? format[0].test(d.pixKey) : false;
      }, pixKeyFormatMessage),
      ['pixKey'],
    ),
    v.forward(
      v.check(
        // Check digits only of a key written in its format: separators are the format's message.
        (d) =>
          (d.pixKeyType !== 'CPF' && d.pixKeyType !== 'CNPJ') ||
          !PIX_KEY_FORMATS[d.pixKeyType]?.[0].test(d.pixKey) ||
          isValidDocument(normalizeDocument(d.pixKey)),
        'a CPF or CNPJ pixKey must have valid check digits',
      ),
      ['pixKey'],
    ),
  ),
);

describeCheck(
  PixDestination.pipe[1],
  'pixKey must match pixKeyType: CPF 11 digits; CNPJ 14 digits; EMAIL an e-mail address of at most 77 characters; PHONE +55 and 10 or 11 digits; EVP a UUID',
);

const BankAccountDestination = named(
  'BankAccountDestination',
  v.strictObject({
    type: v.literal('BANK_ACCOUNT'),
    bankAccount: v.strictObject(
      {
        ispb: IspbSchema,
        branch: v.pipe(
          v.string('branch must be a string'),
          v.regex(/^\d{1,4}$/, 'branch is 1 to 4 digits, without check digit'),
        ),
        account: v.pipe(
          v.string('account must be a string'),
          v.regex(/^\d{1,19}-?[\dXx]$/, 'account is digits with its check digit (e.g. 12345-6)'),
        ),
        accountType: v.optional(
          v.picklist(['CACC', 'SVGS', 'PAYMENT'], 'accountType must be CACC, SVGS or PAYMENT'),
          'CACC',
        ),
      },
      'bankAccount is required when type is BANK_ACCOUNT',
    ),
  }),
);

/** POST /cash-out body (OpenAPI createCashOut). */
export const CreateCashOutSchema = named(
  'CreateCashOut',
  v.strictObject({
    amount: AmountSchema,
    externalReference: ExternalReferenceSchema,
    description: v.optional(
      v.pipe(
        v.string('description must be a string'),
        v.maxLength(140, 'description must have at most 140 characters'),
      ),
    ),
    webhookUrl: v.optional(HttpUrlSchema),
    payee: v.strictObject(
      {
        name: NameSchema,
        document: DocumentSchema,
        destination: named(
          'Destination',
          v.variant(
            'type',
            [PixDestination, BankAccountDestination],
            'destination.type must be PIX or BANK_ACCOUNT',
          ),
        ),
      },
      'payee must be an object',
    ),
  }),
  {
    amount: 'BRL, at least 0.01. Balance and limits are checked after the 202.',
    externalReference:
      'Unique per client even when the earlier Cash-Out was cancelled (send a new one to retry); also accepted as `{id}` on GET /cash-out/{id}.',
    description: "May appear on the payee's bank statement.",
    webhookUrl: 'Receives CASHOUT_COMPLETED, CASHOUT_FAILED and CASHOUT_REFUNDED.',
    payee:
      'Who receives: `name`, `document` (CPF 11 digits or CNPJ 14 characters, alphanumeric ' +
      'included, no separators, letters read upper-case) and `destination` (a CNPJ Pix key likewise; it ' +
      'identifies one payee however its letters are written).',
  },
);

/**
 * A validated Cash-Out body as the ClientLedger takes it: one definition for POST /cash-out and
 * for each item of POST /cash-out/batch, which is an ordinary Cash-Out.
 */
export function cashOutInput(body: v.InferOutput<typeof CreateCashOutSchema>) {
  return {
    amountCents: centsFromAmount(body.amount) as number,
    externalReference: body.externalReference,
    ...(body.description !== undefined && { description: body.description }),
    ...(body.webhookUrl !== undefined && { webhookUrl: body.webhookUrl }),
    payee: body.payee,
  };
}

export const CashOutTransactionId = v.pipe(
  v.string(),
  v.uuid(),
  v.examples(['5f0c7c1e-8d4b-4f55-9a51-3f7b1d2c9e10']),
);

/** POST /cash-out 202 (OpenAPI createCashOut); an operator's approval shows the same fields. */
export const CashOutAccepted = named(
  'CashOutAccepted',
  v.object({
    transactionId: CashOutTransactionId,
    ...TransactionIdentity,
    status: v.literal('PROCESSING'),
    requestedAt: BrtTimestamp,
  }),
);

export type CashOutAcceptedBody = v.InferOutput<typeof CashOutAccepted>;
