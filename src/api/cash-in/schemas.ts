import * as v from 'valibot';
import {
  AmountSchema,
  DocumentSchema,
  ExternalReferenceSchema,
  HttpUrlSchema,
  NameSchema,
} from '../../schemas/common';

/** POST /cash-in body (OpenAPI createCashIn). */
export const CreateCashInSchema = v.strictObject({
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
});
