/**
 * How a stored idempotent answer is kept small (docs/storage-schema.md, Growth: keys are a sixth of a busy
 * object for their 24 hours). The answer is raw-deflated against a preset dictionary of the contract's field
 * names and constant texts, so even a 300-byte answer compresses (without a dictionary, deflate has nothing
 * to refer back to in so little text). The request hash keeps 128 of its 256 bits: a fingerprint only has to
 * tell a client's different bodies for one key apart, and 2^-128 is far past any retry storm.
 *
 * Both columns stay readable when they hold the legacy form (JSON text, 64 hex digits): SQLite keeps
 * each value's own type, so no migration rewrites rows that expire within a day anyway.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { customType } from 'drizzle-orm/sqlite-core';

/** Texts every answer repeats: field names in contract order, states, the BR Code's fixed parts. */
const DICTIONARY = new TextEncoder().encode(
  [
    '"payee":{"name":"","document":"","destination":{"type":"PIX_KEY","key":"","keyType":"EVP"',
    '"accountType":"CHECKING","ispb":"","branch":"","account":""}}',
    '"description":"","webhookUrl":"https://","openFinance":{"redirectUrl":"https://","url":"https://"}',
    '"status":"PROCESSING","status":"AWAITING_PAYMENT","status":"REFUND_REQUESTED"',
    '"refundId":"","reason":"","requestedAt":"2026-11-21T10:15:30.123-03:00"}',
    '"pixData":{"copyAndPaste":"00020101021226',
    '0014br.gov.bcb.pix25',
    '5204000053039865',
    '5802BR59',
    '62070503***6304","qrCodeImage":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA"}',
    '{"transactionId":"","internalCode":"","externalReference":"","amount":',
    ',"payer":{"name":"","document":""}',
  ].join(''),
);

const LEGACY_HASH_HEX = 64;
const FINGERPRINT_BYTES = 16;

/** The part of a request hash that is stored and compared: its first 128 bits, as hex. */
export function fingerprintOf(requestHash: string): string {
  return requestHash.slice(0, FINGERPRINT_BYTES * 2);
}

export function encodeAnswer(body: unknown): Uint8Array {
  return deflateRawSync(new TextEncoder().encode(JSON.stringify(body)), { dictionary: DICTIONARY, level: 9 });
}

export function decodeAnswer(stored: unknown): unknown {
  if (typeof stored === 'string') return JSON.parse(stored);
  const bytes = stored instanceof ArrayBuffer ? new Uint8Array(stored) : (stored as Uint8Array);
  return JSON.parse(new TextDecoder().decode(inflateRawSync(bytes, { dictionary: DICTIONARY })));
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function encodeFingerprint(requestHash: string): Uint8Array {
  return fromHex(fingerprintOf(requestHash));
}

export function decodeFingerprint(stored: unknown): string {
  if (typeof stored === 'string') return stored.length === LEGACY_HASH_HEX ? fingerprintOf(stored) : stored;
  return toHex(stored instanceof ArrayBuffer ? new Uint8Array(stored) : (stored as Uint8Array));
}

/** The stored answer column: deflated JSON (BLOB), legacy JSON text still read. */
export const compressedJson = customType<{ data: unknown; driverData: Uint8Array | string }>({
  dataType: () => 'text', // the column as created; TEXT affinity keeps a BLOB a BLOB
  toDriver: encodeAnswer,
  fromDriver: decodeAnswer,
});

/** The stored request hash column: 16 bytes (BLOB), legacy 64 hex digits still read. */
export const requestFingerprintColumn = customType<{ data: string; driverData: Uint8Array | string }>({
  dataType: () => 'text', // the column as created; TEXT affinity keeps a BLOB a BLOB
  toDriver: encodeFingerprint,
  fromDriver: decodeFingerprint,
});
