/**
 * Reads a QR PNG back as a wallet would: the PNG decoded (node:zlib, not our own compressor) and
 * the symbol scanned with jsQR. Shared by the encoder's tests and the Cash-In journeys.
 */
import { crc32, inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import { expect } from 'vitest';

export function pngBytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * A minimal PNG reader for non-interlaced 1-bit grayscale images, to RGBA. pngjs cannot run here: its sync
 * inflate calls workerd's node:zlib class constructors without `new` (test/node/qr-png-pngjs.test.ts
 * runs it in Node). It inflates with node:zlib, verifies every chunk CRC and undoes all five filters.
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
export function scan(base64: string) {
  const png = decodePng(pngBytes(base64));
  return {
    png,
    rgba: png.rgba,
    text: jsQR(png.rgba, png.width, png.height, { inversionAttempts: 'dontInvert' })?.data,
  };
}
