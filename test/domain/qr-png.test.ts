import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode } from '../../src/domain/brcode';
import { qrPngBase64 } from '../../src/domain/qr-png';
import { pngBytes, scan } from '../support/qr-scan';

const payload = buildDynamicBrCode({
  location: 'pix.connectpsp.test/v2/cobv/3c1f5e0a9b7d4e2f8a6c0b1d',
  amountCents: 12345,
  merchantName: 'ConnectPSP Pagamentos',
  merchantCity: 'São Paulo',
});

describe('qrPngBase64', () => {
  it('encodes a BR Code that a QR reader decodes back exactly', () => {
    expect(scan(qrPngBase64(payload)).text).toBe(payload);
  });

  it.each([
    ['a one-character text', 'x'],
    ['non-ASCII text as UTF-8', 'Pão de Açúcar — 10€'],
    ['a 600-character text (version info, several alignment patterns)', 'PIX-0123456789/'.repeat(40)],
  ])('round-trips %s', (_, text) => {
    expect(scan(qrPngBase64(text)).text).toBe(text);
  });

  it('writes a PNG with a square 1-bit grayscale IHDR', () => {
    const bytes = pngBytes(qrPngBase64(payload));
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(bytes.buffer);
    expect(view.getUint32(8)).toBe(13);
    expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe('IHDR');
    const width = view.getUint32(16);
    expect(view.getUint32(20)).toBe(width);
    expect([bytes[24], bytes[25]]).toEqual([1, 0]); // bit depth 1, colour type 0
    // Version 1-40 symbol (21-177 modules) plus a 4-module quiet zone each side, 4-5 px per module.
    expect(width).toBeGreaterThanOrEqual(29 * 4);
    expect(width).toBeLessThanOrEqual(185 * 5);
    expect(new TextDecoder().decode(bytes.subarray(-8, -4))).toBe('IEND');
    const { png } = scan(qrPngBase64(payload));
    expect([png.width, png.height]).toEqual([width, width]);
  });

  it('leaves a white quiet zone of at least 4 modules around the symbol', () => {
    const { png, rgba } = scan(qrPngBase64(payload));
    const isWhite = (x: number, y: number) => rgba[(y * png.width + x) * 4] === 255;
    // The top-left finder pattern starts at the first dark pixel of the diagonal.
    let start = 0;
    while (isWhite(start, start)) start++;
    const modulePx = (() => {
      let end = start;
      while (!isWhite(end, start)) end++;
      return (end - start) / 7; // the finder's outer ring is 7 modules wide
    })();
    expect(modulePx).toBeGreaterThanOrEqual(4);
    expect(start).toBe(4 * modulePx);
    let darkInQuietZone = 0;
    for (let i = 0; i < png.width; i++) {
      for (let b = 0; b < start; b++) {
        for (const [x, y] of [
          [i, b],
          [b, i],
          [i, png.height - 1 - b],
          [png.width - 1 - b, i],
        ] as const) {
          if (!isWhite(x, y)) darkInQuietZone++;
        }
      }
    }
    expect(darkInQuietZone).toBe(0);
  });

  it('is small enough to embed in a JSON response', () => {
    expect(qrPngBase64(payload).length).toBeLessThan(4096);
  });

  it('compresses like zlib: the BR Code of a charge in under 1,500 base64 characters', () => {
    // workerd's zlib at level 1 gives 1,440; the fixed-Huffman deflate written here before gave 2,136.
    expect(qrPngBase64(payload).length).toBeLessThan(1500);
  });
});
