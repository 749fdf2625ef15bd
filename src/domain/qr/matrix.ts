// Module layout of a QR Code symbol (ISO/IEC 18004 §7.3-7.9): function patterns, format and version
// information, the zig-zag order of the data modules and the eight data masks. Modules are bytes, row-major
// (index row × size + column), 1 = dark.
import { chunksPerLine, packLines } from './penalty';
import { versionParams } from './version-table';

/** The format information (§7.9): level M (indicator 00) and the mask, BCH(15,5)-coded and XOR-ed with 0x5412. */
export function formatBits(mask: number): number {
  const data = (0b00 << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | (rem & 0x3ff)) ^ 0x5412;
}

/** The version information (§7.10) of versions 7 and up: the version, BCH(18,6)-coded. */
export function versionBits(version: number): number {
  let rem = version;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | (rem & 0xfff);
}

/** Whether data mask `mask` (Table 10) inverts the module at row `i`, column `j`. */
export function maskInverts(mask: number, i: number, j: number): boolean {
  switch (mask) {
    case 0:
      return (i + j) % 2 === 0;
    case 1:
      return i % 2 === 0;
    case 2:
      return j % 3 === 0;
    case 3:
      return (i + j) % 3 === 0;
    case 4:
      return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5:
      return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6:
      return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    case 7:
      return (((i + j) % 2) + ((i * j) % 3)) % 2 === 0;
    default:
      throw new RangeError(`QR Code mask must be 0..7, got ${mask}`);
  }
}

export interface Template {
  version: number;
  size: number;
  /** Modules in the (padded) buffers: size², rounded up to a multiple of 4 for the 32-bit views. */
  paddedLength: number;
  /** Module indices of the data area (data + EC codewords, then remainder bits) in placement order. */
  dataPositions: Uint16Array;
  /**
   * Per mask 0..7, 32-bit view of a module buffer holding the function patterns (format information for that
   * mask included) and, on the data area, the mask pattern: XOR-ing it with the unmasked data modules
   * (0 outside the data area) gives the finished symbol.
   */
  patterns: Uint32Array[];
  /**
   * Per mask, the same as packed rows and packed columns (see penalty.ts), 32-bit views: their length is
   * size × chunksPerLine(size) 16-bit chunks, rounded up to an even number.
   */
  rowPatterns: Uint32Array[];
  colPatterns: Uint32Array[];
  /** 1 where a module belongs to a function pattern or the format/version information. */
  reserved: Uint8Array;
}

const templates: Template[] = [];

/** The layout of `version`, built on first use and cached. */
export function template(version: number): Template {
  let t = templates[version];
  if (t === undefined) {
    t = buildTemplate(version);
    templates[version] = t;
  }
  return t;
}

function buildTemplate(version: number): Template {
  const { size, alignment } = versionParams(version);
  const n = size * size;
  const paddedLength = (n + 3) & ~3;
  const value = new Uint8Array(paddedLength);
  const reserved = new Uint8Array(n);
  const set = (row: number, col: number, dark: boolean) => {
    value[row * size + col] = dark ? 1 : 0;
    reserved[row * size + col] = 1;
  };

  // Finder patterns with their light separators.
  for (const [row0, col0] of [
    [0, 0],
    [0, size - 7],
    [size - 7, 0],
  ] as const) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        const row = row0 + r;
        const col = col0 + c;
        if (row < 0 || row >= size || col < 0 || col >= size) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3)); // 0 centre … 3 outer ring, 4 separator
        set(row, col, ring !== 2 && ring !== 4);
      }
    }
  }
  // Timing patterns.
  for (let i = 8; i < size - 8; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  // Alignment patterns, except the three that would overlap the finder patterns.
  const last = alignment.length - 1;
  for (const [a, row] of alignment.entries()) {
    for (const [b, col] of alignment.entries()) {
      if ((a === 0 && b === 0) || (a === 0 && b === last) || (a === last && b === 0)) continue;
      for (let r = -2; r <= 2; r++) {
        for (let c = -2; c <= 2; c++) {
          set(row + r, col + c, Math.max(Math.abs(r), Math.abs(c)) !== 1);
        }
      }
    }
  }
  // Format information positions (filled per mask below) and the dark module.
  const formatPositions = formatInfoPositions(size);
  for (const position of formatPositions) reserved[position] = 1;
  set(size - 8, 8, true);
  // Version information.
  if (version >= 7) {
    const bits = versionBits(version);
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(b, a, dark);
      set(a, b, dark);
    }
  }

  // Data modules: two-module columns from the right, upwards then downwards, skipping the vertical timing
  // pattern's column.
  const dataPositions = new Uint16Array(n);
  let count = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < size; vert++) {
      const row = upward ? size - 1 - vert : vert;
      for (let j = 0; j < 2; j++) {
        const index = row * size + right - j;
        if (!reserved[index]) dataPositions[count++] = index;
      }
    }
  }

  const chunks = chunksPerLine(size);
  const packedLength = (size * chunks + 1) & ~1;
  const positions = dataPositions.slice(0, count);

  const patterns: Uint32Array[] = [];
  const rowPatterns: Uint32Array[] = [];
  const colPatterns: Uint32Array[] = [];
  for (let mask = 0; mask < 8; mask++) {
    const pattern = value.slice();
    const bits = formatBits(mask);
    // Both copies of the 15 format bits: positions i and 15 + i carry bit i.
    for (const [i, position] of formatPositions.entries()) pattern[position] = (bits >>> (i % 15)) & 1;
    for (const index of dataPositions.subarray(0, count)) {
      pattern[index] = maskInverts(mask, Math.floor(index / size), index % size) ? 1 : 0;
    }
    patterns.push(new Uint32Array(pattern.buffer));
    const { rows, cols } = packLines(pattern, size);
    const packedRows = new Uint16Array(packedLength);
    packedRows.set(rows);
    const packedCols = new Uint16Array(packedLength);
    packedCols.set(cols);
    rowPatterns.push(new Uint32Array(packedRows.buffer));
    colPatterns.push(new Uint32Array(packedCols.buffer));
  }
  return {
    version,
    size,
    paddedLength,
    dataPositions: positions,
    patterns,
    rowPatterns,
    colPatterns,
    reserved,
  };
}

/** Module indices of format information bits 0..14 of the copy around the top-left finder, then of the other. */
function formatInfoPositions(size: number): number[] {
  const at = (row: number, col: number) => row * size + col;
  const positions: number[] = [];
  for (let i = 0; i < 6; i++) positions.push(at(i, 8));
  positions.push(at(7, 8), at(8, 8), at(8, 7));
  for (let i = 9; i < 15; i++) positions.push(at(8, 14 - i));
  for (let i = 0; i < 8; i++) positions.push(at(8, size - 1 - i));
  for (let i = 8; i < 15; i++) positions.push(at(size - 15 + i, 8));
  return positions;
}
