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

/**
 * Sorted, distinct offsets in [0, width) → [r, bits…]. Bits are packed a field at a time into a
 * preallocated buffer (not a bit at a time: this runs for every range an archiving step merges).
 */
export function encodeOffsets(offsets: number[], width: number): Uint8Array {
  const r = riceBits(width, offsets.length);
  const unit = 2 ** r;
  const last = offsets.at(-1) ?? -1;
  // Each code is its quotient's ones, a zero and r bits; the quotients sum to at most (last + 1) / unit.
  const out = new Uint8Array(1 + Math.ceil((offsets.length * (r + 1) + Math.floor((last + 1) / unit)) / 8));
  out[0] = r;
  let pos = 1;
  let acc = 0;
  let used = 0;
  // At most 24 bits at a time: `acc` holds < 8 bits between calls, so it stays within 32.
  const put = (value: number, n: number) => {
    acc = (acc << n) | value;
    used += n;
    while (used >= 8) {
      used -= 8;
      out[pos++] = (acc >>> used) & 0xff;
    }
    acc &= (1 << used) - 1;
  };
  let previous = -1;
  for (const value of offsets) {
    const gap = value - previous - 1;
    previous = value;
    let q = Math.floor(gap / unit);
    const rest = gap - q * unit;
    for (; q >= 24; q -= 24) put(0xffffff, 24);
    put(((1 << q) - 1) * 2, q + 1);
    if (r > 16) {
      put(Math.floor(rest / 65_536), r - 16);
      put(rest % 65_536, 16);
    } else if (r > 0) put(rest, r);
  }
  if (used > 0) out[pos++] = (acc << (8 - used)) & 0xff;
  return out.subarray(0, pos);
}

/** The offsets of an encoded blob (`count` of them), in order; stops early once `until` is passed. */
export function decodeOffsets(blob: Uint8Array, count: number, until = Number.POSITIVE_INFINITY): number[] {
  const r = blob[0] ?? 0;
  const unit = 2 ** r;
  const out: number[] = [];
  let at = 8;
  let previous = -1;
  while (out.length < count) {
    // The quotient: the ones before the next zero, a byte at a time (a missing byte reads as zeros).
    let q = 0;
    for (;;) {
      const shift = at & 7;
      const ones = Math.clz32(~((((blob[at >> 3] ?? 0) << shift) & 0xff) << 24));
      const avail = 8 - shift;
      if (ones < avail) {
        q += ones;
        at += ones + 1;
        break;
      }
      q += avail;
      at += avail;
    }
    let rest = 0;
    for (let need = r; need > 0; ) {
      const avail = 8 - (at & 7);
      const take = Math.min(need, avail);
      rest = rest * (1 << take) + (((blob[at >> 3] ?? 0) >> (avail - take)) & ((1 << take) - 1));
      at += take;
      need -= take;
    }
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

/**
 * The range, merged with new hashes (inside it, in any order, repeats allowed), split in halves until
 * each holds at most SHARD_MAX. Two sorted lists merged in one pass: the range's offsets are sorted
 * and distinct already.
 */
export function mergeInto(range: HashRange, hashes: number[]): HashRange[] {
  const added = hashes.map((h) => h - range.lo).sort((a, b) => a - b);
  const old = range.offsets;
  const all: number[] = [];
  let i = 0;
  let j = 0;
  let last = -1;
  while (i < old.length || j < added.length) {
    const a = old[i] ?? Number.POSITIVE_INFINITY;
    const b = added[j] ?? Number.POSITIVE_INFINITY;
    const next = Math.min(a, b);
    if (a === next) i++;
    if (b === next) j++;
    if (next !== last) all.push(next);
    last = next;
  }
  const split = (lo: number, bits: number, offsets: number[]): HashRange[] => {
    if (offsets.length <= SHARD_MAX || bits === 0) return [{ lo, bits, offsets }];
    const half = 2 ** (bits - 1);
    let cut = 0;
    while ((offsets[cut] ?? half) < half) cut++;
    const high = offsets.slice(cut).map((o) => o - half);
    return [...split(lo, bits - 1, offsets.slice(0, cut)), ...split(lo + half, bits - 1, high)];
  };
  return split(range.lo, range.bits, all);
}
