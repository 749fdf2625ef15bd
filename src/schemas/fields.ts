/** Field schemas shared by the response shapes (docs/contract.md, Field conventions). */
import * as v from 'valibot';
import { ISPB_PATTERN } from '../domain/ispb';
import { named } from '../schemas/named';

export const BrtTimestamp = v.pipe(
  v.string(),
  v.isoTimestamp(),
  v.description('ISO 8601 in America/Sao_Paulo: offset -03:00, with milliseconds.'),
  v.examples(['2026-11-21T10:15:30.123-03:00']),
);

export const UtcTimestamp = v.pipe(
  v.string(),
  v.isoTimestamp(),
  v.description('ISO 8601 in UTC (suffix Z).'),
  v.examples(['2026-11-21T13:15:30.123Z']),
);

export const Money = v.pipe(
  v.number(),
  v.description('BRL as a decimal number with at most 2 decimal places.'),
  v.examples([150.25]),
);

export const Count = v.pipe(v.number(), v.integer(), v.minValue(0), v.metadata({ format: 'int64' }));

export const Ispb = v.pipe(
  v.string(),
  v.regex(ISPB_PATTERN),
  v.description('ISPB of the institution: 8 digits or upper-case letters (bacen/pix-api 2.9.0).'),
  v.examples(['31880826']),
);

export const EndToEndId = v.pipe(
  v.string(),
  v.description(
    'End-to-end id issued by the central bank settlement system: `E` for a payment, `D` for a devolution.',
  ),
  v.examples(['E3188082620261121131512345678901']),
);

export const Cursor = v.pipe(
  v.string(),
  v.description('Opaque; copy it verbatim into `cursor` to move to the next or previous page.'),
);

export const AccountType = v.picklist(['TRANSACTIONAL', 'PROPRIETARY']);

/** Bank coordinates of an account (payer, payee or the service's settlement account). */
/** The paying account's bank as the network reported it: branch and account where the partner says. */
export const PayerBankData = named(
  'PayerBankData',
  v.object({
    ispb: v.pipe(
      Ispb,
      v.description("The payer's institution (a real partner: characters 2–9 of the endToEndId)."),
    ),
    bank: v.pipe(v.string(), v.examples(['Itaú Unibanco S.A.'])),
    branch: v.optional(v.pipe(v.string(), v.examples(['0001']))),
    account: v.optional(v.pipe(v.string(), v.examples(['123456-7']))),
  }),
);

export const BankData = named(
  'BankData',
  v.object({
    ispb: Ispb,
    bank: v.pipe(v.string(), v.examples(['Banco Alfa Liquidações S.A.'])),
    branch: v.pipe(v.string(), v.examples(['0001'])),
    account: v.pipe(v.string(), v.examples(['12345-6'])),
  }),
);

/** The identity fields every Cash-In and Cash-Out answer carries besides its transactionId. */
export const TransactionIdentity = {
  internalCode: v.pipe(
    v.string(),
    v.description(
      'Short service code, 7 letters and digits, unique per client, matched case-sensitively; usable as `{id}` to poll. ' +
        'Codes issued now open with a lowercase letter; earlier ones are 7 of A-Z and 0-9 (both keep answering).',
    ),
    v.examples(['K7Q2M9X']),
  ),
  externalReference: v.pipe(v.string(), v.maxLength(50), v.examples(['pedido-1'])),
};
