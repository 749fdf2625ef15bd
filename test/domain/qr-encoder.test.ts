import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { codewords, dataCodewords, encodeQr } from '../../src/domain/qr/encode';
import { EXP, gfMul, LOG } from '../../src/domain/qr/gf256';
import { formatBits, maskInverts, template, versionBits } from '../../src/domain/qr/matrix';
import { penalty } from '../../src/domain/qr/penalty';
import { generatorPolynomial, reedSolomonEc } from '../../src/domain/qr/reed-solomon';
import {
  byteCapacity,
  MAX_BYTES,
  MAX_VERSION,
  versionForBytes,
  versionParams,
} from '../../src/domain/qr/version-table';
import { qrPngBase64 } from '../../src/domain/qr-png';
import { QR_FIXTURES } from './qr-fixtures';

const utf8 = new TextEncoder();

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failure can be reproduced. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rows of a symbol as hex strings, the format of qr-fixtures.ts. */
function hexRows(modules: Uint8Array, size: number): string[] {
  const rows: string[] = [];
  for (let r = 0; r < size; r++) {
    let hex = '';
    for (let c = 0; c < size; c += 4) {
      let nibble = 0;
      for (let k = 0; k < 4; k++) nibble = (nibble << 1) | (c + k < size ? modules[r * size + c + k]! : 0);
      hex += nibble.toString(16);
    }
    rows.push(hex);
  }
  return rows;
}

/** Reads a symbol back with jsQR: 3 px per module, a 4-module white quiet zone. */
function scan(modules: Uint8Array, size: number) {
  const scale = 3;
  const width = (size + 8) * scale;
  const rgba = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (!modules[r * size + c]) continue;
      for (let y = (r + 4) * scale; y < (r + 5) * scale; y++) {
        const x0 = (c + 4) * scale;
        rgba.fill(0, (y * width + x0) * 4, (y * width + x0 + scale) * 4);
        for (let x = x0; x < x0 + scale; x++) rgba[(y * width + x) * 4 + 3] = 255;
      }
    }
  }
  return jsQR(rgba, width, width, { inversionAttempts: 'dontInvert' });
}

/**
 * Reference penalty (ISO/IEC 18004:2015 Table 11, as documented in src/domain/qr/penalty.ts), written
 * plainly: explicit runs, 12-module string windows over each line padded with a 4-module light quiet zone,
 * every 2×2 block, the dark percentage.
 */
function referencePenalty(m: Uint8Array, size: number) {
  const at = (r: number, c: number) => m[r * size + c]!;
  const lines: number[][] = [];
  for (let i = 0; i < size; i++) {
    lines.push(Array.from({ length: size }, (_, j) => at(i, j)));
    lines.push(Array.from({ length: size }, (_, j) => at(j, i)));
  }
  let n1 = 0;
  let n3 = 0;
  for (const line of lines) {
    let runStart = 0;
    for (let j = 1; j <= size; j++) {
      if (j === size || line[j] !== line[runStart]) {
        const length = j - runStart;
        if (length >= 5) n1 += 3 + (length - 5);
        runStart = j;
      }
    }
    const padded = `0000${line.join('')}0000`;
    for (let j = 0; j + 12 <= padded.length; j++) {
      const window = padded.slice(j, j + 12);
      if (window === '000010111010') n3 += 40;
      if (window === '010111010000') n3 += 40;
    }
  }
  let n2 = 0;
  for (let r = 0; r + 1 < size; r++) {
    for (let c = 0; c + 1 < size; c++) {
      const v = at(r, c);
      if (at(r, c + 1) === v && at(r + 1, c) === v && at(r + 1, c + 1) === v) n2 += 3;
    }
  }
  let dark = 0;
  for (let i = 0; i < size * size; i++) dark += m[i]!;
  const n4 = 10 * Math.floor(Math.abs((dark * 100) / (size * size) - 50) / 5);
  return { n1, n2, n3, n4, total: n1 + n2 + n3 + n4 };
}

/** Number of data modules (data + EC codewords + remainder bits) of a version, by the standard's formula. */
function rawDataModules(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const alignments = Math.floor(version / 7) + 2;
    modules -= (25 * alignments - 10) * alignments - 55;
    if (version >= 7) modules -= 36;
  }
  return modules;
}

describe('GF(256) and Reed-Solomon', () => {
  it('builds the field of x^8 + x^4 + x^3 + x^2 + 1', () => {
    expect([...EXP.subarray(0, 10)]).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 0x1d, 0x3a]);
    expect(EXP[255]).toBe(1);
    expect(new Set(EXP.subarray(0, 255)).size).toBe(255);
    for (let a = 1; a < 256; a++) expect(EXP[LOG[a]!]).toBe(a);
    expect(gfMul(0x80, 2)).toBe(0x1d);
    expect(gfMul(0, 0x53)).toBe(0);
  });

  it('has the generator polynomials of Annex A (as exponents of α)', () => {
    const exponents = (degree: number) => [...generatorPolynomial(degree)].map((c) => LOG[c]);
    expect(exponents(7)).toEqual([0, 87, 229, 146, 149, 238, 102, 21]);
    expect(exponents(10)).toEqual([0, 251, 67, 46, 61, 118, 70, 64, 94, 32, 45]);
  });

  it('computes the EC codewords of the standard 1-M examples', () => {
    // ISO/IEC 18004 Annex I: "01234567", numeric mode, 1-M.
    const annexI = [
      0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11,
    ];
    expect([...reedSolomonEc(Uint8Array.from(annexI), 10)]).toEqual([
      0xa5, 0x24, 0xd4, 0xc1, 0xed, 0x36, 0xc7, 0x87, 0x2c, 0x55,
    ]);
    // "HELLO WORLD", alphanumeric mode, 1-M.
    const hello = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
    expect([...reedSolomonEc(Uint8Array.from(hello), 10)]).toEqual([
      196, 35, 39, 119, 235, 215, 231, 226, 93, 23,
    ]);
  });
});

describe('version table (level M)', () => {
  it('has the byte-mode capacities of Table 7', () => {
    const capacities = Array.from({ length: 40 }, (_, i) => byteCapacity(i + 1));
    expect(capacities).toEqual([
      14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666, 711, 779,
      857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809, 1911, 1989, 2099, 2213, 2331,
    ]);
    expect(MAX_BYTES).toBe(2331);
  });

  it('fills each version exactly: codewords + remainder bits = the data modules the template leaves', () => {
    const remainderBits = [0, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4];
    remainderBits.push(3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0);
    for (let version = 1; version <= MAX_VERSION; version++) {
      const p = versionParams(version);
      const blockSum = p.blockData.reduce((sum, n) => sum + n, 0);
      expect(blockSum).toBe(p.dataCodewords);
      expect(p.totalCodewords).toBe(Math.floor(rawDataModules(version) / 8));
      expect(rawDataModules(version) - 8 * p.totalCodewords).toBe(remainderBits[version - 1]);
      expect(template(version).dataPositions.length).toBe(rawDataModules(version));
      // Group 2 blocks hold one data codeword more than group 1 blocks.
      expect(Math.max(...p.blockData) - Math.min(...p.blockData)).toBeLessThanOrEqual(1);
    }
  });

  it('places the alignment patterns of Annex E', () => {
    expect(versionParams(1).alignment).toEqual([]);
    expect(versionParams(2).alignment).toEqual([6, 18]);
    expect(versionParams(7).alignment).toEqual([6, 22, 38]);
    expect(versionParams(12).alignment).toEqual([6, 32, 58]);
    expect(versionParams(32).alignment).toEqual([6, 34, 60, 86, 112, 138]);
    expect(versionParams(40).alignment).toEqual([6, 30, 58, 86, 114, 142, 170]);
    for (let version = 2; version <= MAX_VERSION; version++) {
      // The spacing rule: evenly spaced from the last (size - 7) back, the first gap taking the rest.
      const count = Math.floor(version / 7) + 2;
      const size = 17 + 4 * version;
      const step = version === 32 ? 26 : Math.ceil((size - 13) / (count - 1) / 2) * 2;
      const expected = [6];
      for (let i = count - 2; i >= 0; i--) expected.push(size - 7 - i * step);
      expect(versionParams(version).alignment).toEqual(expected);
    }
  });

  it('picks the smallest version and rejects payloads beyond 40-M with a RangeError', () => {
    expect(versionForBytes(0)).toBe(1);
    expect(versionForBytes(14)).toBe(1);
    expect(versionForBytes(15)).toBe(2);
    expect(versionForBytes(250)).toBe(11);
    expect(versionForBytes(251)).toBe(11);
    expect(versionForBytes(252)).toBe(12);
    expect(versionForBytes(2331)).toBe(40);
    expect(() => versionForBytes(2332)).toThrow(RangeError);
    expect(() => encodeQr(new Uint8Array(2332))).toThrow(RangeError);
    expect(() => qrPngBase64('x'.repeat(2332))).toThrow(RangeError);
    expect(() => qrPngBase64('é'.repeat(1166))).toThrow(RangeError); // 2332 UTF-8 bytes
    expect(encodeQr(new Uint8Array(2331)).size).toBe(177);
    expect(() => versionParams(41)).toThrow(RangeError);
    expect(() => encodeQr(new Uint8Array(1), 8)).toThrow(RangeError);
  });
});

describe('format and version information', () => {
  it('has the BCH-coded format information of Table C.1 for level M', () => {
    const expected = [0x5412, 0x5125, 0x5e7c, 0x5b4b, 0x45f9, 0x40ce, 0x4f97, 0x4aa0];
    expect(Array.from({ length: 8 }, (_, mask) => formatBits(mask))).toEqual(expected);
  });

  it('has the BCH-coded version information of Table D.1', () => {
    const expected = [
      0x07c94, 0x085bc, 0x09a99, 0x0a4d3, 0x0bbf6, 0x0c762, 0x0d847, 0x0e60d, 0x0f928, 0x10b78, 0x1145d,
      0x12a17, 0x13532, 0x149a6, 0x15683, 0x168c9, 0x177ec, 0x18ec4, 0x191e1, 0x1afab, 0x1b08e, 0x1cc1a,
      0x1d33f, 0x1ed75, 0x1f250, 0x209d5, 0x216f0, 0x228ba, 0x2379f, 0x24b0b, 0x2542e, 0x26a64, 0x27541,
      0x28c69,
    ];
    expect(Array.from({ length: 34 }, (_, i) => versionBits(i + 7))).toEqual(expected);
  });

  it('writes both copies of the format information and the version information into the symbol', () => {
    const { size, modules, mask } = encodeQr(utf8.encode('PIX-0123456789/'.repeat(25)));
    const at = (r: number, c: number) => modules[r * size + c]!;
    let first = 0;
    let second = 0;
    for (let i = 0; i <= 5; i++) first |= at(i, 8) << i;
    first |= (at(7, 8) << 6) | (at(8, 8) << 7) | (at(8, 7) << 8);
    for (let i = 9; i < 15; i++) first |= at(8, 14 - i) << i;
    for (let i = 0; i < 8; i++) second |= at(8, size - 1 - i) << i;
    for (let i = 8; i < 15; i++) second |= at(size - 15 + i, 8) << i;
    expect(first).toBe(formatBits(mask));
    expect(second).toBe(formatBits(mask));
    expect(at(size - 8, 8)).toBe(1); // the dark module
    let topRight = 0;
    let bottomLeft = 0;
    for (let i = 0; i < 18; i++) {
      topRight |= at(Math.floor(i / 3), size - 11 + (i % 3)) << i;
      bottomLeft |= at(size - 11 + (i % 3), Math.floor(i / 3)) << i;
    }
    expect(topRight).toBe(versionBits((size - 17) / 4));
    expect(bottomLeft).toBe(topRight);
  });
});

describe('codewords', () => {
  it('encodes byte mode with an 8-bit count, terminator and 0xEC/0x11 padding (1-M)', () => {
    // 0100 00000010 01001000 01101001 0000 = 40 24 86 90, then 12 pad codewords.
    expect([...dataCodewords(utf8.encode('Hi'), 1)]).toEqual([
      0x40, 0x24, 0x86, 0x90, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11,
    ]);
  });

  it('uses a 16-bit count from version 10 on', () => {
    // 0100 0000000100101100 01000001 … : 300 = 0x12c.
    const data = dataCodewords(new Uint8Array(300).fill(0x41), 13);
    expect([...data.subarray(0, 5)]).toEqual([0x40, 0x12, 0xc4, 0x14, 0x14]);
    expect(data[302]).toBe(0x10); // the last byte's low nibble, then the terminator
    expect([...data.subarray(303, 307)]).toEqual([0xec, 0x11, 0xec, 0x11]);
    expect(data.length).toBe(versionParams(13).dataCodewords);
  });

  it('fills a version to the last bit without a pad codeword', () => {
    const data = dataCodewords(new Uint8Array(14).fill(0xff), 1);
    expect(data[15]).toBe(0xf0);
    expect(data.length).toBe(16);
  });

  it('interleaves the data and EC codewords of the blocks (5-M: 2 blocks of 43 + 24 EC)', () => {
    const bytes = utf8.encode('x'.repeat(80));
    const data = dataCodewords(bytes, 5);
    const sequence = codewords(bytes, 5);
    expect(sequence.length).toBe(134);
    for (let i = 0; i < 43; i++) {
      expect(sequence[2 * i]).toBe(data[i]);
      expect(sequence[2 * i + 1]).toBe(data[43 + i]);
    }
    const ec1 = reedSolomonEc(data.subarray(0, 43), 24);
    const ec2 = reedSolomonEc(data.subarray(43), 24);
    for (let i = 0; i < 24; i++) {
      expect(sequence[86 + 2 * i]).toBe(ec1[i]);
      expect(sequence[86 + 2 * i + 1]).toBe(ec2[i]);
    }
  });

  it('puts the longer blocks of group 2 last in the interleaving (12-M: 6 × 36 + 2 × 37)', () => {
    const bytes = utf8.encode('y'.repeat(280));
    const data = dataCodewords(bytes, 12);
    const sequence = codewords(bytes, 12);
    const starts = [0, 36, 72, 108, 144, 180, 216, 253];
    for (let i = 0; i < 36; i++) {
      for (let b = 0; b < 8; b++) expect(sequence[8 * i + b]).toBe(data[starts[b]! + i]);
    }
    expect(sequence[288]).toBe(data[216 + 36]);
    expect(sequence[289]).toBe(data[253 + 36]);
    const lastEc = reedSolomonEc(data.subarray(253), 22);
    expect(sequence[290 + 7]).toBe(lastEc[0]);
    expect(sequence[290 + 21 * 8 + 7]).toBe(lastEc[21]);
  });
});

describe('encodeQr', () => {
  it.each(QR_FIXTURES.map((f) => [`${f.version}-M mask ${f.mask}: ${f.text.slice(0, 32)}`, f] as const))(
    'builds the reference symbol %s',
    (_, fixture) => {
      const qr = encodeQr(utf8.encode(fixture.text), fixture.mask);
      expect(qr.version).toBe(fixture.version);
      expect(qr.size).toBe(17 + 4 * fixture.version);
      expect(qr.mask).toBe(fixture.mask);
      expect(hexRows(qr.modules, qr.size)).toEqual(fixture.rows);
    },
  );

  it('reads back with jsQR for every mask', () => {
    const text = 'pix.connectpsp.com.br/v2/cobv/9f8e7d6c5b4a39281706f5e4d3c2b1a0';
    for (let mask = 0; mask < 8; mask++) {
      const qr = encodeQr(utf8.encode(text), mask);
      expect(scan(qr.modules, qr.size)?.data).toBe(text);
    }
  });

  it('round-trips random ASCII and UTF-8 texts of 1-250 characters through jsQR', () => {
    const next = random(0x51c0de);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ./:-_?=&%*+$';
    const unicode = 'ãçéíóúâêôàüÃÇÉ€—°ªº✓🙂';
    const versions = new Set<number>();
    for (let length = 1; length <= 250; length += 1 + Math.floor(next() * 6)) {
      for (const source of [alphabet, unicode + alphabet, unicode]) {
        const chars = Array.from(source);
        let text = '';
        while (Array.from(text).length < length) text += chars[Math.floor(next() * chars.length)];
        const bytes = utf8.encode(text);
        if (bytes.length > MAX_BYTES) continue;
        const qr = encodeQr(bytes);
        versions.add(qr.version);
        const result = scan(qr.modules, qr.size);
        expect(result?.data, `${bytes.length} bytes, version ${qr.version}, mask ${qr.mask}`).toBe(text);
        expect(result?.version).toBe(qr.version);
      }
    }
    expect(Math.min(...versions)).toBe(1);
    expect(Math.max(...versions)).toBeGreaterThanOrEqual(18);
  });

  it('round-trips random binary payloads through jsQR', () => {
    const next = random(42);
    for (const length of [0, 1, 13, 14, 15, 106, 107, 180, 181, 213, 250, 251, 252, 331, 666]) {
      const bytes = Uint8Array.from({ length }, () => Math.floor(next() * 256));
      const qr = encodeQr(bytes);
      expect(qr.version).toBe(versionForBytes(length));
      expect(scan(qr.modules, qr.size)?.binaryData).toEqual([...bytes]);
    }
  });

  it('keeps the function patterns whatever the data and mask', () => {
    const qr = encodeQr(new Uint8Array(200).fill(0xff), 5);
    const { reserved, patterns } = template(qr.version);
    const fixed = new Uint8Array(patterns[5]!.buffer);
    for (let i = 0; i < qr.size * qr.size; i++) {
      if (reserved[i]) expect(qr.modules[i]).toBe(fixed[i]);
    }
    // Timing patterns alternate, starting dark.
    for (let i = 8; i < qr.size - 8; i++) {
      expect(qr.modules[6 * qr.size + i]).toBe(1 - (i % 2));
      expect(qr.modules[i * qr.size + 6]).toBe(1 - (i % 2));
    }
  });

  it('chooses the mask with the lowest penalty (the first one on a tie)', () => {
    const next = random(7);
    // Payloads whose lowest penalty is shared by two masks (2 and 6, 0 and 6, 5 and 6), then random ones.
    const payloads = ['pix.cpsp.io/c/18', 'pix.cpsp.io/c/26', 'pix.cpsp.io/c/4p'].map((t) => utf8.encode(t));
    for (let trial = 0; trial < 40; trial++) {
      const length = 1 + Math.floor(next() * 250);
      payloads.push(Uint8Array.from({ length }, () => Math.floor(next() * 256)));
    }
    for (const bytes of payloads) {
      const chosen = encodeQr(bytes);
      const scores = Array.from({ length: 8 }, (_, mask) => {
        const qr = encodeQr(bytes, mask);
        const reference = referencePenalty(qr.modules, qr.size).total;
        expect(penalty(qr.modules, qr.size)).toBe(reference);
        return reference;
      });
      expect(chosen.mask).toBe(scores.indexOf(Math.min(...scores)));
      expect(hexRows(chosen.modules, chosen.size)).toEqual(
        hexRows(encodeQr(bytes, chosen.mask).modules, chosen.size),
      );
    }
  });
});

describe('penalty', () => {
  it('scores an all-light 21 × 21 symbol: N1 42 × 19, N2 400 × 3, N4 10 × 10', () => {
    expect(penalty(new Uint8Array(21 * 21), 21)).toBe(42 * 19 + 400 * 3 + 100);
  });

  it('scores finder-like patterns with 4 light modules on one or both sides, the quiet zone included', () => {
    const size = 21;
    const line = (bits: string) => {
      const m = new Uint8Array(size * size);
      // Checkerboard elsewhere so that only row 10 scores N3 (columns have runs of 1).
      for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) m[r * size + c] = (r + c) & 1;
      for (let c = 0; c < size; c++) m[10 * size + c] = Number(bits[c]);
      return m;
    };
    const base = penalty(line('010101010101010101010'), size);
    const reference = referencePenalty(line('010101010101010101010'), size);
    expect(base).toBe(reference.total);
    expect(reference.n3).toBe(0);
    // Quiet zone on the left, 4 light modules on the right: both sides qualify.
    expect(referencePenalty(line('101110100001010101010'), size).n3).toBe(80);
    expect(penalty(line('101110100001010101010'), size)).toBe(
      referencePenalty(line('101110100001010101010'), size).total,
    );
    // One light module on the left, 4 on the right: one.
    expect(referencePenalty(line('010101011101000010101'), size).n3).toBe(40);
    // A 2-module outer dark run is not the 1:1:3:1:1 pattern.
    expect(referencePenalty(line('010100000110111010101'), size).n3).toBe(0);
    for (const bits of ['101110100001010101010', '010101011101000010101', '010100000110111010101']) {
      expect(penalty(line(bits), size)).toBe(referencePenalty(line(bits), size).total);
    }
  });

  it('matches the reference on random matrices of any size (chunk edges included)', () => {
    const next = random(99);
    for (let trial = 0; trial < 200; trial++) {
      const size = [5, 12, 15, 16, 17, 21, 31, 32, 33, 47, 48, 49, 57, 65, 177][trial % 15]!;
      const density = [0.5, 0.1, 0.9, 0.35][trial % 4]!;
      const m = Uint8Array.from({ length: size * size }, () => (next() < density ? 1 : 0));
      // Plant finder-like patterns, sometimes against an edge.
      for (let k = 0; k < 4; k++) {
        const pattern = [0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0];
        const r = Math.floor(next() * size);
        const c = Math.floor(next() * size) - 4;
        for (let j = 0; j < pattern.length; j++) {
          if (c + j >= 0 && c + j < size) m[r * size + c + j] = pattern[j]!;
        }
      }
      expect(penalty(m, size), `size ${size}, trial ${trial}`).toBe(referencePenalty(m, size).total);
    }
  });

  it('agrees with the mask formulas of Table 10', () => {
    const qr = encodeQr(new Uint8Array(0), 4);
    const unmasked = encodeQr(new Uint8Array(0), 0);
    const { reserved } = template(1);
    for (let r = 0; r < 21; r++) {
      for (let c = 0; c < 21; c++) {
        if (reserved[r * 21 + c]) continue;
        const data = unmasked.modules[r * 21 + c]! ^ ((r + c) % 2 === 0 ? 1 : 0);
        const masked = data ^ (maskInverts(4, r, c) ? 1 : 0);
        expect(qr.modules[r * 21 + c]).toBe(masked);
        expect(maskInverts(4, r, c)).toBe((Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0);
      }
    }
  });
});
