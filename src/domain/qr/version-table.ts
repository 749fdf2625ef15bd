// Version parameters of QR Code at error correction level M (ISO/IEC 18004:2015 Tables 9 and E.1).

/** The largest QR Code version. */
import { present } from '../present';
export const MAX_VERSION = 40;

/**
 * Error correction at level M, per version 1..40: EC codewords per block, then the blocks of group 1 and the
 * data codewords in each, then the same for group 2 (0, 0 when there is none). Group 2 blocks hold one data
 * codeword more than group 1 blocks.
 */
const BLOCKS_M: readonly (readonly [number, number, number, number, number])[] = [
  [10, 1, 16, 0, 0], // 1
  [16, 1, 28, 0, 0], // 2
  [26, 1, 44, 0, 0], // 3
  [18, 2, 32, 0, 0], // 4
  [24, 2, 43, 0, 0], // 5
  [16, 4, 27, 0, 0], // 6
  [18, 4, 31, 0, 0], // 7
  [22, 2, 38, 2, 39], // 8
  [22, 3, 36, 2, 37], // 9
  [26, 4, 43, 1, 44], // 10
  [30, 1, 50, 4, 51], // 11
  [22, 6, 36, 2, 37], // 12
  [22, 8, 37, 1, 38], // 13
  [24, 4, 40, 5, 41], // 14
  [24, 5, 41, 5, 42], // 15
  [28, 7, 45, 3, 46], // 16
  [28, 10, 46, 1, 47], // 17
  [26, 9, 43, 4, 44], // 18
  [26, 3, 44, 11, 45], // 19
  [26, 3, 41, 13, 42], // 20
  [26, 17, 42, 0, 0], // 21
  [28, 17, 46, 0, 0], // 22
  [28, 4, 47, 14, 48], // 23
  [28, 6, 45, 14, 46], // 24
  [28, 8, 47, 13, 48], // 25
  [28, 19, 46, 4, 47], // 26
  [28, 22, 45, 3, 46], // 27
  [28, 3, 45, 23, 46], // 28
  [28, 21, 45, 7, 46], // 29
  [28, 19, 47, 10, 48], // 30
  [28, 2, 46, 29, 47], // 31
  [28, 10, 46, 23, 47], // 32
  [28, 14, 46, 21, 47], // 33
  [28, 14, 46, 23, 47], // 34
  [28, 12, 47, 26, 48], // 35
  [28, 6, 47, 34, 48], // 36
  [28, 29, 46, 14, 47], // 37
  [28, 13, 46, 32, 47], // 38
  [28, 40, 47, 7, 48], // 39
  [28, 18, 47, 31, 48], // 40
];

/** Row/column centres of the alignment patterns per version 1..40 (Annex E). */
const ALIGNMENT: readonly (readonly number[])[] = [
  [],
  [6, 18],
  [6, 22],
  [6, 26],
  [6, 30],
  [6, 34],
  [6, 22, 38],
  [6, 24, 42],
  [6, 26, 46],
  [6, 28, 50],
  [6, 30, 54],
  [6, 32, 58],
  [6, 34, 62],
  [6, 26, 46, 66],
  [6, 26, 48, 70],
  [6, 26, 50, 74],
  [6, 30, 54, 78],
  [6, 30, 56, 82],
  [6, 30, 58, 86],
  [6, 34, 62, 90],
  [6, 28, 50, 72, 94],
  [6, 26, 50, 74, 98],
  [6, 30, 54, 78, 102],
  [6, 28, 54, 80, 106],
  [6, 32, 58, 84, 110],
  [6, 30, 58, 86, 114],
  [6, 34, 62, 90, 118],
  [6, 26, 50, 74, 98, 122],
  [6, 30, 54, 78, 102, 126],
  [6, 26, 52, 78, 104, 130],
  [6, 30, 56, 82, 108, 134],
  [6, 34, 60, 86, 112, 138],
  [6, 30, 58, 86, 114, 142],
  [6, 34, 62, 90, 118, 146],
  [6, 30, 54, 78, 102, 126, 150],
  [6, 24, 50, 76, 102, 128, 154],
  [6, 28, 54, 80, 106, 132, 158],
  [6, 32, 58, 84, 110, 136, 162],
  [6, 26, 54, 82, 110, 138, 166],
  [6, 30, 58, 86, 114, 142, 170],
];

export interface VersionParams {
  version: number;
  /** Modules per side: 17 + 4 × version. */
  size: number;
  /** Data codewords over all blocks. */
  dataCodewords: number;
  /** Data and EC codewords over all blocks. */
  totalCodewords: number;
  ecPerBlock: number;
  /** Data codewords of each block, group 1 blocks first. */
  blockData: Uint16Array;
  alignment: readonly number[];
}

const params: VersionParams[] = [];

function checkVersion(version: number): void {
  if (!Number.isInteger(version) || version < 1 || version > MAX_VERSION) {
    throw new RangeError(`QR Code version must be 1..${MAX_VERSION}, got ${version}`);
  }
}

/** The level-M parameters of `version` (1..40). */
export function versionParams(version: number): VersionParams {
  checkVersion(version);
  let p = params[version];
  if (p === undefined) {
    const [ecPerBlock, n1, d1, n2, d2] = present(BLOCKS_M[version - 1], `the blocks of version ${version}`);
    const blockData = new Uint16Array(n1 + n2);
    blockData.fill(d1, 0, n1);
    blockData.fill(d2, n1);
    const dataCodewords = n1 * d1 + n2 * d2;
    p = {
      version,
      size: 17 + 4 * version,
      dataCodewords,
      totalCodewords: dataCodewords + (n1 + n2) * ecPerBlock,
      ecPerBlock,
      blockData,
      alignment: present(ALIGNMENT[version - 1], `the alignment of version ${version}`),
    };
    params[version] = p;
  }
  return p;
}

/** Bits of the byte-mode character count indicator: 8 up to version 9, 16 from version 10 on. */
export function byteCountBits(version: number): number {
  return version < 10 ? 8 : 16;
}

/** The most bytes that byte mode fits into `version` at level M (mode 4 bits + count, no terminator needed). */
export function byteCapacity(version: number): number {
  return (versionParams(version).dataCodewords * 8 - 4 - byteCountBits(version)) >> 3;
}

/** The largest byte-mode payload at level M: 2331 bytes, in version 40. */
export const MAX_BYTES = byteCapacity(MAX_VERSION);

/** The smallest version that holds `byteLength` bytes in byte mode at level M; RangeError if none does. */
export function versionForBytes(byteLength: number): number {
  if (byteLength > MAX_BYTES) {
    throw new RangeError(
      `QR Code payload of ${byteLength} bytes exceeds the ${MAX_BYTES}-byte maximum (40-M)`,
    );
  }
  for (let v = 1; ; v++) if (byteCapacity(v) >= byteLength) return v;
}
