// The QR PNG (deflated by workerd's native zlib in the Worker) read by independent decoders, in Node because
// pngjs cannot run in workerd: pngjs decodes it strictly (CRCs, zlib, filters) and jsQR reads it back.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode } from '../../src/domain/brcode';
import { qrPngBase64 } from '../../src/domain/qr-png';

describe('QR PNG under pngjs', () => {
  it.each([
    buildDynamicBrCode({
      location: 'pix.connectpsp.test/pix/qr/AbCdEfGhIjKlMnOpQrStUv/ABCDEFG',
      amountCents: 15025,
      merchantName: 'LOJA BENCHMARK LTDA',
      merchantCity: 'SAO PAULO',
    }),
    'x',
    'PIX-0123456789/'.repeat(150),
  ])('decodes and scans back %#', (text) => {
    const png = PNG.sync.read(Buffer.from(qrPngBase64(text), 'base64'), { checkCRC: true });
    const rgba = new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length);
    expect(jsQR(rgba, png.width, png.height)?.data).toBe(text);
  });
});
