import { crc32, inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode } from '../../src/domain/brcode';
import { qrPngBase64 } from '../../src/domain/qr-png';

const payload = buildDynamicBrCode({
  location: 'pix.connectpsp.test/v2/cobv/3c1f5e0a9b7d4e2f8a6c0b1d',
  amountCents: 12345,
  merchantName: 'ConnectPSP Pagamentos',
  merchantCity: 'São Paulo',
});

function pngBytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * A minimal PNG reader for non-interlaced 1-bit grayscale images, to RGBA. pngjs cannot run here: its sync
 * inflate calls workerd's node:zlib class constructors without `new` (test/node/qr-png-pngjs.test.ts
 * runs it in Node). It inflates with node:zlib, not our own code, so that the compressor
 * (src/domain/deflate.ts) does not check itself, verifies every chunk CRC and undoes all five filters.
 */
function decodePng(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: { type: string; data: Uint8Array }[] = [];
  for (let pos = 8; pos < bytes.length; ) {
    const length = view.getUint32(pos);
    const type = new TextDecoder().decode(bytes.subarray(pos + 4, pos + 8));
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    if (crc32(bytes.subarray(pos + 4, pos + 8 + length)) !== view.getUint32(pos + 8 + length)) {
      throw new Error(`bad CRC in chunk ${type}`);
    }
    chunks.push({ type, data });
    pos += 12 + length;
  }
  const ihdr = chunks[0]!;
  expect(ihdr.type).toBe('IHDR');
  expect(chunks.at(-1)?.type).toBe('IEND');
  const ihdrView = new DataView(ihdr.data.buffer, ihdr.data.byteOffset);
  const width = ihdrView.getUint32(0);
  const height = ihdrView.getUint32(4);
  expect([...ihdr.data.subarray(8)]).toEqual([1, 0, 0, 0, 0]); // 1-bit grayscale, no interlace

  const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
  const raw = new Uint8Array(inflateSync(idat));
  const stride = Math.ceil(width / 8);
  expect(raw.length).toBe((stride + 1) * height);
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i > 0 ? pixels[y * stride + i - 1]! : 0; // bytes per pixel rounds up to 1
      const b = y > 0 ? pixels[(y - 1) * stride + i]! : 0;
      const c = i > 0 && y > 0 ? pixels[(y - 1) * stride + i - 1]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter!];
      if (predictor === undefined) throw new Error(`bad filter ${filter}`);
      pixels[y * stride + i] = (x + predictor) & 0xff;
    }
  }
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const level = (pixels[y * stride + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
      rgba.fill(level, (y * width + x) * 4, (y * width + x) * 4 + 3);
      rgba[(y * width + x) * 4 + 3] = 255;
    }
  }
  return { width, height, rgba };
}

/** Decodes the PNG and reads the QR code back with jsQR. */
function scan(base64: string) {
  const png = decodePng(pngBytes(base64));
  return {
    png,
    rgba: png.rgba,
    text: jsQR(png.rgba, png.width, png.height, { inversionAttempts: 'dontInvert' })?.data,
  };
}

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
});
