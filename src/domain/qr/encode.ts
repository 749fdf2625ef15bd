// QR Code encoder for byte-mode payloads at error correction level M (ISO/IEC 18004:2015), the smallest
// version that fits, the mask with the lowest penalty. Typed-array reads are within bounds by construction
// (`?? 0` only tells the compiler so); a table entry that must exist is read through present().
import { present } from '../present';
import { template } from './matrix';
import { packedPenalty, packLines } from './penalty';
import { reedSolomonRemainder } from './reed-solomon';
import { byteCountBits, versionForBytes, versionParams } from './version-table';

export interface QrMatrix {
  version: number;
  /** Modules per side. */
  size: number;
  /** The data mask applied, 0..7. */
  mask: number;
  /**
   * size × size modules, row-major (index row × size + column), 1 = dark. Quiet zone not included. A view
   * on a slightly longer buffer (rounded up to 4 bytes).
   */
  modules: Uint8Array;
}

/**
 * The data codewords (§7.4): byte mode indicator 0100, the count, the bytes, the 4-bit terminator, then pad
 * codewords 0xEC 0x11 alternately. The header is 12 or 20 bits, so every byte straddles two codewords.
 */
export function dataCodewords(bytes: Uint8Array, version: number): Uint8Array {
  const out = new Uint8Array(versionParams(version).dataCodewords);
  const n = bytes.length;
  let pos: number;
  if (byteCountBits(version) === 8) {
    out[0] = 0x40 | (n >>> 4);
    out[1] = (n & 0xf) << 4;
    pos = 1;
  } else {
    out[0] = 0x40 | (n >>> 12);
    out[1] = (n >>> 4) & 0xff;
    out[2] = (n & 0xf) << 4;
    pos = 2;
  }
  for (let i = 0; i < n; i++) {
    const b = bytes[i] ?? 0;
    out[pos] = (out[pos] ?? 0) | (b >>> 4);
    out[++pos] = (b & 0xf) << 4;
  }
  // out[pos] ends with the terminator's 4 zero bits, which always fit: the capacity is whole codewords and
  // the header + data is 4 bits short of a whole codeword.
  for (let i = pos + 1, pad = 0xec; i < out.length; i++, pad ^= 0xec ^ 0x11) out[i] = pad;
  return out;
}

/** The final codeword sequence (§7.6): data codewords interleaved over the blocks, then EC codewords. */
export function codewords(bytes: Uint8Array, version: number): Uint8Array {
  const { blockData, ecPerBlock, totalCodewords, dataCodewords: dataCount } = versionParams(version);
  const data = dataCodewords(bytes, version);
  const blocks = blockData.length;
  const out = new Uint8Array(totalCodewords);
  const ec = new Uint8Array(blocks * ecPerBlock);
  const longData = present(blockData[blocks - 1], 'the last block');
  const scratch = new Uint8Array(longData + ecPerBlock);
  const shortData = present(blockData[0], 'the first block');
  // Blocks of group 2 (if any) come last and hold one data codeword more.
  let firstLong = blocks;
  while (firstLong > 0 && (blockData[firstLong - 1] ?? 0) > shortData) firstLong--;

  let start = 0;
  for (let b = 0; b < blocks; b++) {
    const length = blockData[b] ?? 0;
    reedSolomonRemainder(data, start, length, ecPerBlock, ec, b * ecPerBlock, scratch);
    let k = b;
    for (let i = 0; i < shortData; i++, k += blocks) out[k] = data[start + i] ?? 0;
    if (length > shortData) out[shortData * blocks + b - firstLong] = data[start + shortData] ?? 0;
    start += length;
  }
  for (let b = 0; b < blocks; b++) {
    let k = dataCount + b;
    for (let i = 0; i < ecPerBlock; i++, k += blocks) out[k] = ec[b * ecPerBlock + i] ?? 0;
  }
  return out;
}

/**
 * The QR Code (level M, byte mode, smallest version) of `bytes`. `forceMask` (0..7) skips the mask selection.
 * RangeError for more than 2331 bytes, the capacity of version 40-M.
 */
export function encodeQr(bytes: Uint8Array, forceMask?: number): QrMatrix {
  if (forceMask !== undefined && (!Number.isInteger(forceMask) || forceMask < 0 || forceMask > 7)) {
    throw new RangeError(`QR Code mask must be 0..7, got ${forceMask}`);
  }
  const version = versionForBytes(bytes.length);
  const { size, paddedLength, dataPositions, patterns, rowPatterns, colPatterns } = template(version);
  const sequence = codewords(bytes, version);

  // The unmasked data modules: 0 on the function pattern area and for the remainder bits.
  const data = new Uint8Array(paddedLength);
  for (let i = 0, p = 0; i < sequence.length; i++, p += 8) {
    const b = sequence[i] ?? 0;
    data[dataPositions[p] ?? 0] = b >>> 7;
    data[dataPositions[p + 1] ?? 0] = (b >>> 6) & 1;
    data[dataPositions[p + 2] ?? 0] = (b >>> 5) & 1;
    data[dataPositions[p + 3] ?? 0] = (b >>> 4) & 1;
    data[dataPositions[p + 4] ?? 0] = (b >>> 3) & 1;
    data[dataPositions[p + 5] ?? 0] = (b >>> 2) & 1;
    data[dataPositions[p + 6] ?? 0] = (b >>> 1) & 1;
    data[dataPositions[p + 7] ?? 0] = b & 1;
  }

  let mask = forceMask ?? 0;
  if (forceMask === undefined) {
    // Score each mask on packed rows and columns: data XOR (function patterns + mask pattern).
    const packedWords = present(rowPatterns[0], 'mask 0 rows').length;
    const { rows: dataRows, cols: dataCols } = packLines(
      data,
      size,
      new Uint16Array(2 * packedWords),
      new Uint16Array(2 * packedWords),
    );
    const rows32 = new Uint32Array(dataRows.buffer);
    const cols32 = new Uint32Array(dataCols.buffer);
    const rows = new Uint16Array(2 * packedWords);
    const cols = new Uint16Array(2 * packedWords);
    const maskedRows32 = new Uint32Array(rows.buffer);
    const maskedCols32 = new Uint32Array(cols.buffer);
    let bestScore = Infinity;
    for (let m = 0; m < 8; m++) {
      const rowPattern = present(rowPatterns[m], 'mask rows');
      const colPattern = present(colPatterns[m], 'mask columns');
      for (let j = 0; j < packedWords; j++) {
        maskedRows32[j] = (rows32[j] ?? 0) ^ (rowPattern[j] ?? 0);
        maskedCols32[j] = (cols32[j] ?? 0) ^ (colPattern[j] ?? 0);
      }
      const score = packedPenalty(rows, cols, size);
      if (score < bestScore) {
        bestScore = score;
        mask = m;
      }
    }
  }

  const data32 = new Uint32Array(data.buffer);
  const pattern = present(patterns[mask], 'mask pattern');
  for (let j = 0; j < data32.length; j++) data32[j] = (data32[j] ?? 0) ^ (pattern[j] ?? 0);
  return { version, size, mask, modules: data.subarray(0, size * size) };
}
