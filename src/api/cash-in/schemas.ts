import * as v from 'valibot';
import {
  AmountSchema,
  DocumentSchema,
  ExternalReferenceSchema,
  HttpUrlSchema,
  NameSchema,
} from '../../schemas/common';
import { named } from '../../schemas/named';

/** POST /cash-in body (OpenAPI createCashIn). */
export const CreateCashInSchema = named(
  'CreateCashIn',
  v.strictObject({
    amount: AmountSchema,
    externalReference: ExternalReferenceSchema,
    expirationInMinutes: v.optional(
      v.pipe(
        v.number('expirationInMinutes must be an integer'),
        v.integer('expirationInMinutes must be an integer'),
        v.minValue(1, 'expirationInMinutes must be between 1 and 43200'),
        v.maxValue(43200, 'expirationInMinutes must be between 1 and 43200'),
      ),
      1440,
    ),
    webhookUrl: v.optional(HttpUrlSchema),
    payer: v.strictObject(
      {
        name: NameSchema,
        document: DocumentSchema,
      },
      'payer must be an object',
    ),
    openFinance: v.optional(
      v.strictObject({ redirectUrl: HttpUrlSchema }, 'openFinance must be an object with redirectUrl'),
    ),
    includeQrCodeImage: v.optional(v.boolean('includeQrCodeImage must be a boolean'), true),
  }),
  {
    amount: 'BRL, at least 0.01.',
    externalReference:
      'Your own reference, unique per client (409 DUPLICATED_EXTERNAL_REFERENCE otherwise); also accepted as `{id}` on GET /cash-in/{id}.',
    expirationInMinutes: 'Payment window in minutes; `expiredAt` = creation + this.',
    webhookUrl:
      'Receives the events of this Cash-In. Production: https to a public host only; staging also allows http://127.0.0.1 and localhost.',
    payer:
      "Who pays: `name` and `document` (a CPF of 11 digits or a CNPJ of 14 characters, 12 digits or letters then 2 digits, the alphanumeric CNPJ included; no separators; letters read upper-case; check digits verified). A real partner's PSP receives it as the charge's `devedor` and shows it to the payer.",
    openFinance:
      'When present, selects the open-finance flow; `redirectUrl` is where the payer goes after paying. Sandbox partner only (staging): on a real partner 422 RULE_VIOLATION.',
    includeQrCodeImage: 'When true the answer includes the QR code as a Base64 PNG.',
  },
);
