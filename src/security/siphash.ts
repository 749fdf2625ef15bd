/**
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012): a keyed 64-bit
 * PRF for short inputs, synchronous and in 32-bit arithmetic, where Web Crypto's HMAC is async and
 * node:crypto's costs a call into the runtime per use (the internal codes' permutation runs it 8
 * times per code, src/domain/internal-code.ts). Checked against the paper's test vectors
 * (test/domain/internal-code.test.ts).
 */

// Each 64-bit word as [high, low] 32-bit halves in one scratch array: v0 v1 v2 v3 at 0, 2, 4, 6.
const v = new Uint32Array(8);

function add(a: number, b: number): void {
  const lo = ((v[a + 1] as number) + (v[b + 1] as number)) >>> 0;
  const carry = lo < (v[a + 1] as number) ? 1 : 0;
  v[a] = ((v[a] as number) + (v[b] as number) + carry) >>> 0;
  v[a + 1] = lo;
}

function rotl(a: number, n: number): void {
  const hi = v[a] as number;
  const lo = v[a + 1] as number;
  if (n === 32) {
    v[a] = lo;
    v[a + 1] = hi;
    return;
  }
  v[a] = ((hi << n) | (lo >>> (32 - n))) >>> 0;
  v[a + 1] = ((lo << n) | (hi >>> (32 - n))) >>> 0;
}

function xor(a: number, b: number): void {
  v[a] = ((v[a] as number) ^ (v[b] as number)) >>> 0;
  v[a + 1] = ((v[a + 1] as number) ^ (v[b + 1] as number)) >>> 0;
}

function sipRound(): void {
  add(0, 2);
  rotl(2, 13);
  xor(2, 0);
  rotl(0, 32);
  add(4, 6);
  rotl(6, 16);
  xor(6, 4);
  add(0, 6);
  rotl(6, 21);
  xor(6, 0);
  add(4, 2);
  rotl(2, 17);
  xor(2, 4);
  rotl(4, 32);
}

const le32 = (bytes: Uint8Array, at: number) =>
  ((bytes[at] ?? 0) |
    ((bytes[at + 1] ?? 0) << 8) |
    ((bytes[at + 2] ?? 0) << 16) |
    ((bytes[at + 3] ?? 0) << 24)) >>>
  0;

function absorb(hi: number, lo: number, rounds: number): void {
  v[6] = ((v[6] as number) ^ hi) >>> 0;
  v[7] = ((v[7] as number) ^ lo) >>> 0;
  for (let i = 0; i < rounds; i++) sipRound();
  v[0] = ((v[0] as number) ^ hi) >>> 0;
  v[1] = ((v[1] as number) ^ lo) >>> 0;
}

/** A 16-byte key as SipHash reads it: k0 low, k0 high, k1 low, k1 high (32-bit words). */
export function sipKey(key: Uint8Array): Uint32Array {
  if (key.length !== 16) throw new RangeError('a SipHash key has 16 bytes');
  return Uint32Array.of(le32(key, 0), le32(key, 4), le32(key, 8), le32(key, 12));
}

function start(k: Uint32Array): void {
  const [k0lo, k0hi, k1lo, k1hi] = [k[0] as number, k[1] as number, k[2] as number, k[3] as number];
  v[0] = k0hi ^ 0x736f6d65;
  v[1] = k0lo ^ 0x70736575;
  v[2] = k1hi ^ 0x646f7261;
  v[3] = k1lo ^ 0x6e646f6d;
  v[4] = k0hi ^ 0x6c796765;
  v[5] = k0lo ^ 0x6e657261;
  v[6] = k1hi ^ 0x74656462;
  v[7] = k1lo ^ 0x79746573;
}

function finish(): [number, number] {
  v[5] = ((v[5] as number) ^ 0xff) >>> 0;
  for (let i = 0; i < 4; i++) sipRound();
  return [
    ((v[0] as number) ^ (v[2] as number) ^ (v[4] as number) ^ (v[6] as number)) >>> 0,
    ((v[1] as number) ^ (v[3] as number) ^ (v[5] as number) ^ (v[7] as number)) >>> 0,
  ];
}

/** SipHash-2-4 of `message` under a key (sipKey): the 64-bit result as [high, low] 32-bit halves. */
export function sipHash24(k: Uint32Array, message: Uint8Array): [number, number] {
  start(k);
  const whole = message.length - (message.length % 8);
  for (let at = 0; at < whole; at += 8) absorb(le32(message, at + 4), le32(message, at), 2);
  // The last block: the remaining bytes, the length's low byte on top.
  const tail = new Uint8Array(8);
  tail.set(message.subarray(whole));
  tail[7] = message.length & 0xff;
  absorb(le32(tail, 4), le32(tail, 0), 2);
  return finish();
}

/** sipHash24 of the 8 bytes of the 64-bit little-endian word high·2^32 + low, without building them. */
export function sipHash24Word(k: Uint32Array, high: number, low: number): [number, number] {
  start(k);
  absorb(high >>> 0, low >>> 0, 2);
  // An 8-byte message's last block is its length alone.
  absorb(0x08000000, 0, 2);
  return finish();
}
