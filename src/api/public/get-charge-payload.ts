/**
 * GET /pix/qr/{locator} (docs/contract.md, BR Code): the charge payload a wallet fetches at the BR
 * Code location, as a JWS; sandbox partner only.
 */
import { chargePayload } from '../../domain/charge-payload';
import { chargeAt } from '../../http/charge-locator';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import { locatorParameter } from '../../openapi/parameters';
import { toHex, utf8 } from '../../security/encoding';
import { route } from '../route-table';
import { SIGNED_PAYLOAD, signedPayloadResponse } from './shared';

/** A stable EVP-shaped receiving key per settlement account. */
async function receiverKey(accountNumber: string): Promise<string> {
  const h = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(`evp:${accountNumber}`))));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function handleChargeLocation({ request, env }: Input): Promise<Response> {
  const charge = await chargeAt(env, String(request.params.locator ?? ''));
  // A real partner's charge is served by its PSP, signed with the PSP's certificate, never here.
  if (!charge || charge.found.pspLocation !== null)
    throw new ProblemError('NOT_FOUND', 'No charge at this location');
  const { found } = charge;
  const payload = chargePayload({
    ...found,
    receiverKey: await receiverKey(found.accountNumber),
    nowMs: Date.now(),
  });
  return signedPayloadResponse(env, request.url, payload);
}

export const getChargePayload = route(
  {
    method: 'get',
    path: '/pix/qr/{locator}',
    operationId: 'getChargePayload',
    summary: 'Charge payload at the BR Code location',
    description:
      "Sandbox partner only. What a wallet fetches after reading a sandbox Cash-In's dynamic BR " +
      'Code: the charge as the BCB API Pix defines it (`cob`: calendario, txid, status, devedor, valor, ' +
      'chave), as a compact JWS signed with ES256. Verify it with the key at `/.well-known/jwks.json` ' +
      "(the `jku` header). `{locator}` is the client's random location key and the charge's " +
      "internalCode; it carries no client id. A real partner's charge (a declared `bcb-api-pix` " +
      "partner) is not served here: its BR Code is the PSP's own `pixCopiaECola`, whose location is the " +
      "PSP's, and a payer's bank reads and verifies the payload there against that PSP's certificate; " +
      'this path answers 404 for it.',
    tag: 'PIX location',
    auth: 'none',
    parameters: [locatorParameter],
    openQuery: true,
    success: {
      '200': {
        description: 'The signed charge.',
        contentType: 'application/jose',
        schema: SIGNED_PAYLOAD,
      },
    },
    errors: ['NOT_FOUND'],
  },
  handleChargeLocation,
);
