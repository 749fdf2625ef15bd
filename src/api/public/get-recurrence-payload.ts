/**
 * GET /pix/rec/{locator} (docs/contract.md, Pix Automático): the recurrence payload a payer's bank
 * fetches at a recurrence's QR location, as a JWS; sandbox partner only.
 */
import { recurrenceAt } from '../../http/charge-locator';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import { locatorParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { SIGNED_PAYLOAD, signedPayloadResponse } from './shared';

async function handleRecurrenceLocation({ request, env }: Input): Promise<Response> {
  const payload = await recurrenceAt(env, String(request.params.locator ?? ''));
  if (!payload) throw new ProblemError('NOT_FOUND', 'No recurrence at this location');
  return signedPayloadResponse(env, request.url, payload);
}

export const getRecurrencePayload = route(
  {
    method: 'get',
    path: '/pix/rec/{locator}',
    operationId: 'getRecurrencePayload',
    summary: 'Recurrence payload at the Pix Automático QR location',
    description:
      "Sandbox partner only. What a payer's bank fetches after reading a recurrence's QR (POST /recurrences" +
      ' without `payer.bankData`): the recurrence as bacen/pix-api 2.9.0 defines the payload of `GET ' +
      '/rec/{recUrlAccessToken}` (`RecPayload`: idRec, vinculo, calendario, valor, politicaRetentativa, ' +
      'recebedor, atualizacao), as a compact JWS signed with ES256; verify it with the key at ' +
      "`/.well-known/jwks.json` (the `jku` header). `recebedor` carries the client's name and its " +
      "settlement partner's ISPB but no CNPJ, which the gateway does not record. `{locator}` is the " +
      "client's random location key and the recurrence's 7-character location code. It answers in every " +
      "status (`atualizacao` tells the payer's bank whether it may still be approved).",
    tag: 'PIX location',
    auth: 'none',
    parameters: [locatorParameter],
    openQuery: true,
    success: {
      '200': {
        description: 'The signed recurrence.',
        contentType: 'application/jose',
        schema: SIGNED_PAYLOAD,
      },
    },
    errors: ['NOT_FOUND'],
  },
  handleRecurrenceLocation,
);
