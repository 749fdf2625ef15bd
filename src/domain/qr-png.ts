// QR code of a BR Code as a base64 PNG (pixData.qrCodeImageBase64). ./qr/encode builds the module matrix
// (level M, byte mode); the PNG is written here as 1-bit grayscale, which keeps the image around a kilobyte.
// Its zlib stream and CRCs come from workerd's native zlib (node:zlib, nodejs_compat): 4-6x faster than
// the deflate written here before and a third smaller (docs/benchmark.md, "The QR PNG: ours or a library").
import { deflateSync, crc32 as zlibCrc32 } from 'node:zlib';
import { encodeQr } from './qr/encode';

/** Pixels per module: 5 px keeps a ~110-character payload (45 modules) at 265 px, easy for phone cameras. */
const SCALE = 5;
/** The 4-module white border that the QR specification requires around the symbol. */
const QUIET_ZONE = 4;

const crc32 = (bytes: Uint8Array, start: number, end: number): number =>
  zlibCrc32(bytes.subarray(start, end)) >>> 0;

const encoder = new TextEncoder();

/**
 * Raw scanlines: a filter byte then bits, 1 = white, 0 = black (grayscale, bit depth 1). The pixel rows of one
 * module row are identical, so all but the first use filter 2 ("Up"): all zeros, which deflates to almost
 * nothing.
 */
function scanlines(matrix: Uint8Array, modules: number, size: number): Uint8Array {
  const stride = 1 + Math.ceil(size / 8);
  const raw = new Uint8Array(stride * size).fill(0xff);
  for (let y = 0; y < size; y++) {
    const row = y * stride;
    raw[row] = 0;
    const my = Math.floor(y / SCALE) - QUIET_ZONE;
    if (my < 0 || my >= modules) continue;
    if (y % SCALE !== 0) {
      raw[row] = 2;
      raw.fill(0, row + 1, row + stride);
      continue;
    }
    for (let mx = 0, i = my * modules; mx < modules; mx++, i++) {
      if (matrix[i] === 0) continue;
      const x0 = (mx + QUIET_ZONE) * SCALE;
      for (let x = x0; x < x0 + SCALE; x++) {
        const at = row + 1 + (x >> 3);
        raw[at] = (raw[at] ?? 0xff) & ~(0x80 >> (x & 7));
      }
    }
  }
  return raw;
}

function chunk(out: Uint8Array, pos: number, type: string, data: Uint8Array): number {
  const view = new DataView(out.buffer, out.byteOffset);
  view.setUint32(pos, data.length);
  for (let i = 0; i < 4; i++) out[pos + 4 + i] = type.charCodeAt(i);
  out.set(data, pos + 8);
  view.setUint32(pos + 8 + data.length, crc32(out, pos + 4, pos + 8 + data.length));
  return pos + 12 + data.length;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * PNG bytes of the QR code (level M, byte mode of the UTF-8 bytes, smallest version that fits) of `text`.
 * RangeError if the text is longer than 2331 UTF-8 bytes, the capacity of version 40-M.
 */
export function qrPng(text: string): Uint8Array {
  const qr = encodeQr(encoder.encode(text));
  const size = (qr.size + 2 * QUIET_ZONE) * SCALE;

  const ihdr = new Uint8Array(13);
  const ihdrView = new DataView(ihdr.buffer);
  ihdrView.setUint32(0, size);
  ihdrView.setUint32(4, size);
  ihdr[8] = 1; // bit depth; colour type 0 (grayscale), compression, filter and interlace all 0
  // Level 1: level 9 is 8x slower for 16 % fewer bytes.
  const idat = deflateSync(scanlines(qr.modules, qr.size, size), { level: 1 });

  const png = new Uint8Array(SIGNATURE.length + 3 * 12 + ihdr.length + idat.length);
  png.set(SIGNATURE);
  let pos = chunk(png, SIGNATURE.length, 'IHDR', ihdr);
  pos = chunk(png, pos, 'IDAT', idat);
  chunk(png, pos, 'IEND', new Uint8Array(0));
  return png;
}

/**
 * Base64 without Node's Buffer. Chunked so String.fromCharCode never gets too many arguments; `apply` on the
 * typed array is ~7x faster than spreading it.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  }
  return btoa(binary);
}

/** Base64 PNG of the QR code of `text`, as sent in pixData.qrCodeImageBase64. */
export function qrPngBase64(text: string): string {
  return bytesToBase64(qrPng(text));
}
