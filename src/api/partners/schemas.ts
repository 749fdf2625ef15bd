/**
 * The body of an API Pix webhook callback (`{webhookUrl}/pix`, requestBodies.WebhookPixBody of
 * bacen/pix-api): `{ pix: [Pix, …] }`. Only each Pix's end-to-end id is used, as a hint of what to
 * read again from the partner; the rest of the body is never trusted, so it is not validated.
 */
import * as v from 'valibot';
import { named } from '../../schemas/named';

/** More than a PSP groups into one callback; bounds the partner calls one request can cause. */
export const MAX_CALLBACK_PIX = 500;

export const PixCallbackSchema = named(
  'PartnerPixCallback',
  v.object({
    pix: v.pipe(
      v.array(
        v.looseObject({
          endToEndId: v.pipe(
            v.string('endToEndId must be a string'),
            v.regex(/^[a-zA-Z0-9]{32}$/, 'endToEndId must be 32 letters or digits'),
          ),
          // The standard's other fields, named for the document; read again from the partner instead.
          txid: v.optional(v.unknown()),
          valor: v.optional(v.unknown()),
          horario: v.optional(v.unknown()),
          devolucoes: v.optional(v.unknown()),
        }),
        'pix must be an array of Pix',
      ),
      v.maxLength(MAX_CALLBACK_PIX, `pix must have at most ${MAX_CALLBACK_PIX} items`),
    ),
  }),
);
