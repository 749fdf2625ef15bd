/** What the public pages share: an HTML answer, and the signed payloads of the PIX locations. */
import { signJws } from '../../security/jws';

export const HTML = { type: 'string', description: 'An HTML page.' };

/** A compact JWS, as the BR Code and recurrence locations answer it. */
export const SIGNED_PAYLOAD = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
  description: 'Compact JWS.',
};

/**
 * A location's payload signed ES256 with the gateway's PIX key; the `jku` header names
 * `/.well-known/jwks.json` on the host asked, where a wallet verifies it.
 */
export async function signedPayloadResponse(
  env: Env,
  requestUrl: string,
  payload: unknown,
): Promise<Response> {
  const url = new URL(requestUrl);
  const jws = await signJws(
    payload,
    env.PIX_SIGNING_KEY,
    `${url.protocol}//${url.host}/.well-known/jwks.json`,
  );
  return new Response(jws, { headers: { 'content-type': 'application/jose', 'cache-control': 'no-store' } });
}
