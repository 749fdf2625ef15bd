// Mask penalty score (ISO/IEC 18004:2015 §7.8.3, Table 11).
//
// N1 = 3: each run of 5 or more same-colour modules in a row or column scores 3, plus 1 per module beyond 5.
// N2 = 3: each 2×2 block of one colour scores 3 (blocks may overlap).
// N3 = 40: each finder-like pattern in a row or column: dark-light-dark-dark-dark-light-dark (1:1:3:1:1)
//   with 4 light modules on one side and at least one on the other (so the outer dark runs are exactly
//   1 module), i.e. the 12-module windows 0000 1011101 0 and 0 1011101 0000 (1 = dark). A pattern with 4
//   light modules on both sides scores twice. The quiet zone around the symbol counts as light.
// N4 = 10: per whole 5% step that the proportion of dark modules deviates from 50%.
//
// Lines are scored bit-parallel, 16 modules at a time. A line is packed in 16-bit chunks, first module in
// the chunk's top bit: chunk j holds modules 16j..16j+15, bits past the end are 0. A 32-bit accumulator
// shifts in one chunk per step (older modules in higher bits), so bit b then holds module e = 16j + 15 - b
// and the windows that end at the 16 new modules can all be tested with shifts and masks. Reads are within
// bounds by construction; `?? 0` only tells the compiler so.

const N1 = 3;
const N2 = 3;
const N3 = 40;
const N4 = 10;

/** 16-bit chunks per line of a `size`-module symbol. */
export function chunksPerLine(size: number): number {
  return (size + 15) >> 4;
}

/** Set bits per byte value. */
const POP8 = new Uint8Array(256);
for (let i = 1; i < 256; i++) POP8[i] = (i & 1) + (POP8[i >>> 1] ?? 0);

/** Number of set bits of a 16-bit value (two lookups in a table that stays in L1, faster than SWAR here). */
function pop16(x: number): number {
  return (POP8[x & 0xff] ?? 0) + (POP8[x >>> 8] ?? 0);
}

/** N1 and N3 of the line in `a[start, start + chunks)`. */
function linePenalty(a: Uint16Array, start: number, chunks: number, size: number): number {
  const pad = 16 * chunks - size; // bits past the end in the last chunk
  // The last chunk's padding is light, like the quiet zone; one more (empty) chunk is needed when it is too
  // short for the 4 light modules that may follow a finder-like pattern.
  const steps = pad >= 4 ? chunks : chunks + 1;
  let runs = 0;
  let finders = 0;
  let acc = 0; // the quiet zone before the line: light
  for (let j = 0; j < steps; j++) {
    acc = (acc << 16) | (j < chunks ? (a[start + j] ?? 0) : 0);
    const light = ~acc;
    // N3: the core 1011101 ending at bit b, then the two windows ending at bit b.
    const core = acc & (light >>> 1) & (acc >>> 2) & (acc >>> 3) & (acc >>> 4) & (light >>> 5) & (acc >>> 6);
    if ((core & 0xffffe) !== 0) {
      // (rare: the two windows read core bits 1..19)
      const light4 = light & (light >>> 1) & (light >>> 2) & (light >>> 3);
      const lightBefore = light & (core >>> 1) & (light4 >>> 8) & 0xffff;
      const lightAfter = light4 & (core >>> 4) & (light >>> 11) & 0xffff;
      finders += pop16(lightBefore) + pop16(lightAfter);
    }
    if (j >= chunks) break;

    // N1: `five` marks windows of 5 equal modules (ending at bit b), `first` those that start a run.
    let valid = 0xffff;
    if (j === 0) valid = 0x0fff; // the window must start at module 0 or later
    if (j === chunks - 1) valid &= 0xffff << pad; // and end before the padding
    const same = ~(acc ^ (acc >>> 1)); // module at bit b equals the one before it
    const same2 = same & (same >>> 1);
    const five = same2 & (same2 >>> 2) & valid;
    const first = five & ~(same >>> 4);
    runs += pop16(five) + 2 * pop16(first);
  }
  // A light run at the start of the line merged with the quiet zone, so its first window was not marked.
  if (((a[start] ?? 0) & 0xf800) === 0) runs += N1 - 1;
  return runs + N3 * finders;
}

/**
 * The penalty score of a `size` × `size` symbol given as packed rows and packed columns (see above): line i
 * in `rows`/`cols` starts at i × chunksPerLine(size).
 */
export function packedPenalty(rows: Uint16Array, cols: Uint16Array, size: number): number {
  const chunks = chunksPerLine(size);
  const pad = 16 * chunks - size;
  let score = 0;
  for (let i = 0, start = 0; i < size; i++, start += chunks) {
    score += linePenalty(rows, start, chunks, size) + linePenalty(cols, start, chunks, size);
  }

  // N2 over pairs of rows, counting the one-colour 2×2 blocks whose right column is at bit b; and N4.
  let blocks = 0;
  let dark = 0;
  for (let start = 0; start < (size - 1) * chunks; start += chunks) {
    let upper = 0;
    let lower = 0;
    for (let j = 0; j < chunks; j++) {
      const u = rows[start + j] ?? 0;
      upper = (upper << 16) | u;
      lower = (lower << 16) | (rows[start + chunks + j] ?? 0);
      dark += pop16(u);
      let valid = 0xffff;
      if (j === 0) valid = 0x7fff; // the block's left column is column 0 or later
      if (j === chunks - 1) valid &= 0xffff << pad;
      const vertical = ~(upper ^ lower);
      blocks += pop16(vertical & (vertical >>> 1) & ~(upper ^ (upper >>> 1)) & valid);
    }
  }
  for (let start = (size - 1) * chunks, j = 0; j < chunks; j++) dark += pop16(rows[start + j] ?? 0);

  const total = size * size;
  return score + N2 * blocks + N4 * Math.floor(Math.abs(dark * 20 - total * 10) / total);
}

/**
 * Packs a row-major byte matrix (1 = dark, 0 = light) into rows and columns for `packedPenalty`, into
 * `rows`/`cols` if given (they must be zero-filled, size × chunksPerLine(size) chunks or more).
 */
export function packLines(
  modules: Uint8Array,
  size: number,
  rows = new Uint16Array(size * chunksPerLine(size)),
  cols = new Uint16Array(size * chunksPerLine(size)),
): { rows: Uint16Array; cols: Uint16Array } {
  const chunks = chunksPerLine(size);
  for (let line = 0; line < size; line++) {
    for (let j = 0, k = 0; j < chunks; j++) {
      let row = 0;
      let col = 0;
      const end = Math.min(k + 16, size);
      for (let shift = 15; k < end; k++, shift--) {
        row |= (modules[line * size + k] ?? 0) << shift;
        col |= (modules[k * size + line] ?? 0) << shift;
      }
      rows[line * chunks + j] = row;
      cols[line * chunks + j] = col;
    }
  }
  return { rows, cols };
}

/** The penalty score of the `size` × `size` row-major byte matrix `modules` (1 = dark). */
export function penalty(modules: Uint8Array, size: number): number {
  const { rows, cols } = packLines(modules, size);
  return packedPenalty(rows, cols, size);
}
