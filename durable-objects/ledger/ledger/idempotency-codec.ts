/**
 * How a stored idempotent answer is kept small (docs/storage-schema.md, Growth: keys are a sixth of a busy
 * object for their 24 hours). The answer is raw-deflated against a preset dictionary of the contract's field
 * names and constant texts, so even a 300-byte answer compresses (without a dictionary, deflate has nothing
 * to refer back to in so little text). The request hash keeps 128 of its 256 bits: a fingerprint only has to
 * tell a client's different bodies for one key apart, and 2^-128 is far past any retry storm.
 *
 * An answer about a Cash-In or Cash-Out (its create, a refund) keeps less still: the transaction's fixed
 * fields (src/domain/fixed-fields.ts) join the dictionary, so the deflated answer refers to them instead
 * of repeating them, and a replay rebuilds them from the transaction, hot or archived. Its BLOB opens with
 * REBUILT, a byte no raw deflate stream starts with (block type 11 is reserved), then the kind, the
 * internalCode (unique per kind forever), and 4 bytes of the answer's SHA-256 that refuse a wrong rebuild.
 * An answer whose request brought text of its own (a BR Code's location prefix, the merchant's name and city)
 * opens with IN_CONTEXT instead and names that text by its index in the client's list of contexts
 * (settings-store.ts), kept once per client and added to the dictionary before the fixed fields.
 * The key itself is kept as the first 128 bits of its SHA-256: a UUID key was stored twice (row, primary key).
 *
 * Every column stays readable when it holds an older form (a key as text, JSON text, 64 hex digits, a
 * plain deflated answer): SQLite keeps each value's own type, so no migration rewrites rows that expire
 * within a day anyway.
 */
import { createHash } from 'node:crypto';
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
  if (bytes[0] === REBUILT || bytes[0] === IN_CONTEXT) return rebuiltAnswer(bytes);
  return JSON.parse(new TextDecoder().decode(inflateRawSync(bytes, { dictionary: DICTIONARY })));
}

/** First bytes no raw deflate stream has (block type 11): an answer rebuilt from its transaction, without and with a context. */
const REBUILT = 0xfe;
const IN_CONTEXT = 0xff;
const KINDS = ['cash-in', 'cash-out'] as const;
const CHECK_BYTES = 4;
/** Contexts a client's answers may name (one byte); past it, answers are stored without one. */
export const MAX_CONTEXTS = 256;

export type AnswerKind = (typeof KINDS)[number];

/** An answer stored beside its transaction: `answer` needs that transaction's fixed fields (and its context). */
export class RebuiltAnswer {
  constructor(
    readonly kind: AnswerKind,
    readonly internalCode: string,
    /** The index of its context in the client's list, if it names one. */
    readonly context: number | undefined,
    private readonly check: Uint8Array,
    private readonly deflated: Uint8Array,
  ) {}

  /** The first answer, or undefined when these are not the fields (and context) it was stored with. */
  answer(fixed: Record<string, unknown>, context = ''): unknown {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
        inflateRawSync(this.deflated, { dictionary: dictionaryWith(fixed, context) }),
      );
    } catch {
      return undefined;
    }
    return sameBytes(checkOf(text), this.check) ? JSON.parse(text) : undefined;
  }
}

const dictionaryWith = (fixed: Record<string, unknown>, context: string) => {
  const own = new TextEncoder().encode(`${context}${JSON.stringify(fixed)}`);
  const joined = new Uint8Array(DICTIONARY.length + own.length);
  joined.set(DICTIONARY);
  joined.set(own, DICTIONARY.length); // last: the nearest, so the cheapest to refer to
  return joined;
};

const checkOf = (text: string) => createHash('sha256').update(text).digest().subarray(0, CHECK_BYTES);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Where an answer's context is: its text and its index in the client's list. */
export interface AnswerContext {
  index: number;
  text: string;
}

/** An answer about a transaction: REBUILT (or IN_CONTEXT and its index), kind, code length and code, check, deflated JSON. */
export function encodeRebuilt(
  body: unknown,
  kind: AnswerKind,
  internalCode: string,
  fixed: Record<string, unknown>,
  context?: AnswerContext,
) {
  const text = JSON.stringify(body);
  const code = new TextEncoder().encode(internalCode);
  const dictionary = dictionaryWith(fixed, context?.text ?? '');
  const deflated = deflateRawSync(new TextEncoder().encode(text), { dictionary, level: 9 });
  const head = context
    ? [IN_CONTEXT, context.index, KINDS.indexOf(kind), code.length]
    : [REBUILT, KINDS.indexOf(kind), code.length];
  const out = new Uint8Array(head.length + code.length + CHECK_BYTES + deflated.length);
  out.set(head);
  out.set(code, head.length);
  out.set(checkOf(text), head.length + code.length);
  out.set(deflated, head.length + code.length + CHECK_BYTES);
  return out;
}

function rebuiltAnswer(bytes: Uint8Array): RebuiltAnswer {
  const context = bytes[0] === IN_CONTEXT ? (bytes[1] ?? 0) : undefined;
  const from = context === undefined ? 1 : 2;
  const length = bytes[from + 1] ?? 0;
  const at = from + 2 + length;
  return new RebuiltAnswer(
    KINDS[bytes[from] ?? 0] ?? 'cash-in',
    new TextDecoder().decode(bytes.subarray(from + 2, at)),
    context,
    bytes.subarray(at, at + CHECK_BYTES),
    bytes.subarray(at + CHECK_BYTES),
  );
}

/** How a key is stored: the first 128 bits of its SHA-256 (2^-128 between two keys of a day). */
export function storedKey(key: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(key).digest().subarray(0, 16));
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

/** The stored answer column: deflated JSON or a RebuiltAnswer's bytes (BLOB), legacy JSON text still read. */
export const compressedJson = customType<{ data: unknown; driverData: Uint8Array | string }>({
  dataType: () => 'text', // the column as created; TEXT affinity keeps a BLOB a BLOB
  toDriver: (answer) => (answer instanceof Uint8Array ? answer : encodeAnswer(answer)),
  fromDriver: decodeAnswer,
});

/** The key column: its 16-byte hash (BLOB); a key stored as text before is read as it is. */
export const idempotencyKeyColumn = customType<{ data: string; driverData: Uint8Array | string }>({
  dataType: () => 'text', // the column as created
  toDriver: storedKey,
  fromDriver: (stored) => (typeof stored === 'string' ? stored : toHex(new Uint8Array(stored as Uint8Array))),
});

/** The stored request hash column: 16 bytes (BLOB), legacy 64 hex digits still read. */
export const requestFingerprintColumn = customType<{ data: string; driverData: Uint8Array | string }>({
  dataType: () => 'text', // the column as created; TEXT affinity keeps a BLOB a BLOB
  toDriver: encodeFingerprint,
  fromDriver: decodeFingerprint,
});
