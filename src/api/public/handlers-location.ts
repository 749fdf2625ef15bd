/**
 * Public endpoints wallets use (docs/contract.md, BR Code): the charge payload at the BR Code location, as a
 * JWS, and the key that verifies it.
 */
import { chargePayload } from '../../domain/charge-payload';
import { chargeAt } from '../../http/charge-locator';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import { toHex, utf8 } from '../../security/encoding';
import { signingKey, signJws } from '../../security/jws';

/** A stable EVP-shaped receiving key per settlement account. */
async function receiverKey(accountNumber: string): Promise<string> {
  const h = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(`evp:${accountNumber}`))));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export async function handleChargeLocation(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const charge = await chargeAt(env, String(request.params.locator ?? ''));
  // A real partner's charge is served by its PSP, signed with the PSP's certificate, never here.
  if (!charge || charge.found.pspLocation !== null)
    throw new ProblemError('NOT_FOUND', 'No charge at this location');
  const url = new URL(request.url);
  const { found } = charge;
  const payload = chargePayload({
    ...found,
    receiverKey: await receiverKey(found.accountNumber),
    nowMs: Date.now(),
  });
  const jws = await signJws(
    payload,
    env.PIX_SIGNING_KEY,
    `${url.protocol}//${url.host}/.well-known/jwks.json`,
  );
  return new Response(jws, { headers: { 'content-type': 'application/jose', 'cache-control': 'no-store' } });
}

export async function handleJwks(_request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const key = await signingKey(env.PIX_SIGNING_KEY);
  return json({ keys: [key.publicJwk] }, 200, { 'cache-control': 'public, max-age=300' });
}
