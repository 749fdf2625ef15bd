/**
 * Secrets at rest: credentials the gateway only verifies (client secret, ApplicationToken) are kept
 * as SHA-256 digests (they are 122-bit random GUIDs, so a fast digest is safe); secrets it must use
 * (CryptoToken as an HMAC key, webhook secret) are encrypted with AES-256-GCM under
 * DATA_ENCRYPTION_KEY.
 */
import { fromBase64, fromUtf8, toBase64, toHex, utf8 } from './encoding';

export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(text))));
}

/** Constant-time comparison of two strings of any length (length itself is not secret here). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = utf8(a);
  const bb = utf8(b);
  if (ab.length !== bb.length) return false;
  return crypto.subtle.timingSafeEqual(ab, bb);
}

const aesKeys = new Map<string, Promise<CryptoKey>>();

function aesKey(base64Key: string): Promise<CryptoKey> {
  let key = aesKeys.get(base64Key);
  if (!key) {
    key = crypto.subtle.importKey('raw', fromBase64(base64Key), 'AES-GCM', false, ['encrypt', 'decrypt']);
    aesKeys.set(base64Key, key);
  }
  return key;
}

/** `v1.<iv>.<ciphertext>` in base64; the version leaves room for key rotation. */
export async function encryptSecret(plain: string, base64Key: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await aesKey(base64Key), utf8(plain));
  return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

export async function decryptSecret(sealed: string, base64Key: string): Promise<string> {
  const [version, iv, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !data) throw new Error('unknown secret envelope');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(iv) },
    await aesKey(base64Key),
    fromBase64(data),
  );
  return fromUtf8(new Uint8Array(plain));
}

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${toBase64(randomBytes(32))}`;
}

/** CryptoToken handed to integrators: 64 hex characters of randomness. */
export function newCryptoToken(): string {
  return toHex(randomBytes(32));
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();

/** HMAC-SHA256 key from UTF-8 text, memoised per isolate (importKey is the costly part). */
export function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    if (hmacKeys.size > 10_000) hmacKeys.clear();
    key = crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    hmacKeys.set(secret, key);
  }
  return key;
}

export async function hmacSha256(secret: string, message: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), utf8(message)));
}
