/**
 * Standard Webhooks signature (docs/contract.md, Webhooks): `v1,` + base64 HMAC-SHA256 over
 * `{webhook-id}.{webhook-timestamp}.{body}`, keyed by the base64-decoded bytes after `whsec_`.
 */
import { fromBase64, toBase64, utf8 } from '../security/encoding';

const SECRET_PREFIX = 'whsec_';
const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC key of a `whsec_…` secret, memoised per isolate (importKey is the costly part). */
function signingKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret must start with whsec_');
    if (keys.size > 10_000) keys.clear();
    key = crypto.subtle.importKey(
      'raw',
      fromBase64(secret.slice(SECRET_PREFIX.length)),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    keys.set(secret, key);
  }
  return key;
}

/** The `webhook-signature` header value for one request. */
export async function signWebhook(
  secret: string,
  webhookId: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await signingKey(secret),
    utf8(`${webhookId}.${timestampSeconds}.${body}`),
  );
  return `v1,${toBase64(new Uint8Array(mac))}`;
}
