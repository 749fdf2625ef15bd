/**
 * A compact approximate set of strings (the archive's externalReference filter,
 * durable-objects/ledger/archive/reference-filter.ts): each key is hashed to HASH_BITS bits and the
 * sorted hashes of one range of that space are stored Golomb–Rice coded (the gaps between sorted
 * hashes are near-geometric: a unary quotient and `r` low bits each). Membership is exact on the
 * hashes, so a key never added answers "may hold" only when its hash equals a stored one: for n keys
 * over 2^w hashes a false-positive rate of 1 − e^(−n / 2^w) (≈ n / 2^w while small), at about
 * log2(2^w / d) + 1.5 bits per distinct hash d (docs/storage-schema.md, "externalReference filter").
 * Ranges split in halves past SHARD_MAX keys, so adding a key rewrites at most one small blob.
 */

/**
 * Hash width of a new filter: 33 bits keeps 10 years at 1,000,000 Cash-Ins a day (3.65 × 10^9 keys)
 * near 1.1 GB, beside a 0.75 GB hot window under the object's 2 GB (docs/storage-schema.md). A
 * filter keeps the width it was started with (34 bits before 2026-11-29): its ranges say it.
 */
export const HASH_BITS = 33;
/** Keys per range before it splits: a blob of at most ~2.5 KB, at most 1,024 gaps decoded per create. */
export const SHARD_MAX = 1024;

/** cyrb53 (a public-domain 53-bit string hash: two 32-bit multiply-xor lanes), cut to `bits` (≤ 53). */
export function keyHash(key: string, bits = HASH_BITS): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const h53 = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return Math.floor(h53 / 2 ** (53 - bits));
}

/** The Rice parameter for `count` values spread over `width`: the gaps' mean, rounded down to a power of two. */
function riceBits(width: number, count: number): number {
  return count === 0 ? 0 : Math.max(0, Math.floor(Math.log2(width / count)));
}

/** Sorted, distinct offsets in [0, width) → [r, bits…]. */
export function encodeOffsets(offsets: number[], width: number): Uint8Array {
  const r = riceBits(width, offsets.length);
  const unit = 2 ** r;
  const bytes: number[] = [r];
  let byte = 0;
  let used = 0;
  const put = (bit: number) => {
    byte = (byte << 1) | bit;
    if (++used === 8) {
      bytes.push(byte);
      byte = 0;
      used = 0;
    }
  };
  let previous = -1;
  for (const value of offsets) {
    const gap = value - previous - 1;
    previous = value;
    const q = Math.floor(gap / unit);
    for (let i = 0; i < q; i++) put(1);
    put(0);
    const rest = gap - q * unit;
    for (let bit = r - 1; bit >= 0; bit--) put(Math.floor(rest / 2 ** bit) % 2);
  }
  if (used > 0) bytes.push(byte << (8 - used));
  return Uint8Array.from(bytes);
}

/** The offsets of an encoded blob (`count` of them), in order; stops early once `until` is passed. */
export function decodeOffsets(blob: Uint8Array, count: number, until = Number.POSITIVE_INFINITY): number[] {
  const r = blob[0] ?? 0;
  const unit = 2 ** r;
  const out: number[] = [];
  let at = 8;
  const bit = () => {
    const b = ((blob[at >> 3] ?? 0) >> (7 - (at & 7))) & 1;
    at++;
    return b;
  };
  let previous = -1;
  while (out.length < count) {
    let q = 0;
    while (bit() === 1) q++;
    let rest = 0;
    for (let i = 0; i < r; i++) rest = rest * 2 + bit();
    previous += q * unit + rest + 1;
    out.push(previous);
    if (previous >= until) break;
  }
  return out;
}

/** One range of the hash space and the offsets (hash − lo) of its keys. */
export interface HashRange {
  lo: number;
  /** log2 of the range's width. */
  bits: number;
  offsets: number[];
}

/** The range, merged with new hashes (inside it), split in halves until each holds at most SHARD_MAX. */
export function mergeInto(range: HashRange, hashes: number[]): HashRange[] {
  const all = [...new Set([...range.offsets, ...hashes.map((h) => h - range.lo)])].sort((a, b) => a - b);
  const split = (lo: number, bits: number, offsets: number[]): HashRange[] => {
    if (offsets.length <= SHARD_MAX || bits === 0) return [{ lo, bits, offsets }];
    const half = 2 ** (bits - 1);
    const low = offsets.filter((o) => o < half);
    const high = offsets.filter((o) => o >= half).map((o) => o - half);
    return [...split(lo, bits - 1, low), ...split(lo + half, bits - 1, high)];
  };
  return split(range.lo, range.bits, all);
}
