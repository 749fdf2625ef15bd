/**
 * Internal codes unique by construction (docs/storage-schema.md, "Internal codes"): the n-th code a
 * client is issued is a keyed permutation of n over the 26·62^6 seven-character codes whose first
 * character is a lowercase letter. Codes drawn at random before were 7 characters of `A–Z0–9`, a
 * space disjoint from this one, so a new code never meets an old one, and two counter values never
 * meet each other (a bijection): no create asks anything about its code. The permutation is keyed
 * per client, so a code tells neither the client's volume nor its neighbours' codes.
 *
 * The permutation is FE1 (Black and Rogaway, "Ciphers with arbitrary finite domains", 2002, as
 * Botan's FPE_FE1): a Feistel network over the mixed radix A·B = 26·62^6, so no cycle walking is
 * needed; each of its 8 rounds is SipHash-2-4 under the client's key (src/security/siphash.ts).
 */
import { sipHash24Word, sipKey } from '../security/siphash';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const TAIL = 62 ** 6;
/** How many codes the scheme can issue per client: 26·62^6 ≈ 1.48 × 10^12. */
export const CODE_SPACE = 26 * TAIL;
// A·B = CODE_SPACE with A and B close to its square root: 13·2^7·31^2 and 31^4.
const A = 1_599_104;
const B = 923_521;
const ROUNDS = 8;
/** Bytes of a client's permutation key. */
export const CODE_KEY_BYTES = 16;

/** An internal code of the counter scheme: a lowercase letter, then six letters or digits. */
export const COUNTER_CODE = /^[a-z][A-Za-z0-9]{6}$/;
/** An internal code drawn at random before the counter scheme: seven of `A–Z0–9`. */
export const RANDOM_CODE = /^[A-Z0-9]{7}$/;
/** Either form: what a TxId of ours or a charge locator carries after the 22-character key. */
export const INTERNAL_CODE_SOURCE = '[A-Z0-9]{7}|[a-z][A-Za-z0-9]{6}';

function round(key: Uint32Array, index: number, half: number): number {
  const [hi, lo] = sipHash24Word(key, half, index);
  // 64 bits reduced modulo A (< 2^21), exactly in doubles: (hi mod A)·2^32 + lo < 2^53.
  return ((hi % A) * 2 ** 32 + lo) % A;
}

function permute(key: Uint32Array, n: number): number {
  let x = n;
  for (let i = 0; i < ROUNDS; i++) {
    const left = Math.floor(x / B);
    const right = x % B;
    x = A * right + ((left + round(key, i, right)) % A);
  }
  return x;
}

function unpermute(key: Uint32Array, y: number): number {
  let x = y;
  for (let i = ROUNDS - 1; i >= 0; i--) {
    const w = x % A;
    const right = Math.floor(x / A);
    const left = (((w - round(key, i, right)) % A) + A) % A;
    x = B * left + right;
  }
  return x;
}

function keyOf(key: Uint8Array): Uint32Array {
  if (key.length !== CODE_KEY_BYTES) throw new RangeError(`a code key has ${CODE_KEY_BYTES} bytes`);
  return sipKey(key);
}

/** The code of a client's n-th issue (n from 0): distinct for distinct n under one key. */
export function counterCode(key: Uint8Array, n: number): string {
  const k = keyOf(key);
  if (!Number.isSafeInteger(n) || n < 0 || n >= CODE_SPACE) throw new RangeError('code counter out of range');
  let y = permute(k, n);
  let tail = '';
  for (let i = 0; i < 6; i++, y = Math.floor(y / 62)) tail = ALNUM[y % 62] + tail;
  return (LOWER[y] as string) + tail;
}

/** counterCode's inverse: the counter value a code of the scheme came from, or undefined for any other string. */
export function counterOfCode(key: Uint8Array, code: string): number | undefined {
  const k = keyOf(key);
  if (!COUNTER_CODE.test(code)) return undefined;
  let y = LOWER.indexOf(code[0] as string);
  for (const c of code.slice(1)) y = y * 62 + ALNUM.indexOf(c);
  return unpermute(k, y);
}
