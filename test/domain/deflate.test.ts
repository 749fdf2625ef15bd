import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zlibDeflate } from '../../src/domain/deflate';

/** node:zlib (not our code) undoes the stream and checks its header and Adler-32. */
const inflate = (bytes: Uint8Array) => new Uint8Array(inflateSync(bytes));

function rows(width: number, height: number, fill: (x: number, y: number) => number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[y * width + x] = fill(x, y);
  return out;
}

describe('zlibDeflate', () => {
  it.each([
    ['empty input', new Uint8Array(0), 0],
    ['one byte', Uint8Array.of(7), 0],
    ['every byte value (literals of 8 and 9 bits)', Uint8Array.from({ length: 256 }, (_, i) => i), 0],
    ['a long run (matches of 258 at distance 1)', new Uint8Array(5000).fill(0xff), 0],
    ['rows repeating the row above', rows(33, 200, (x, y) => ((x * 7) ^ (y >> 3)) & 0xff), 33],
    ['data longer than the 32 KiB window', rows(117, 925, (x, y) => (x * 31 + (y >> 2) * 17) & 0xff), 117],
  ])('inflates back to the same bytes: %s', (_, data, stride) => {
    expect(inflate(zlibDeflate(data, stride))).toEqual(data);
  });

  it('inflates back to the same bytes for any input and stride', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 3000 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 4 }),
        (data, stride, alphabet) => {
          // A small alphabet makes matches of every length and distance likely.
          const input = data.map((b) => b % (alphabet * 2));
          expect(inflate(zlibDeflate(input, stride))).toEqual(input);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('compresses repetitive rows well and is deterministic', () => {
    const data = rows(32, 245, (x, y) => (y % 5 === 0 ? (x * 13 + (y >> 4)) & 0xff : 0));
    const once = zlibDeflate(data, 32);
    expect(once.length).toBeLessThan(data.length / 4);
    expect(zlibDeflate(data, 32)).toEqual(once);
  });
});
