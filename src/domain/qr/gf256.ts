// Arithmetic in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11d), the field of QR Code Reed-Solomon codes.

/** EXP[i] = α^i, doubled to 510 entries so that EXP[LOG[a] + LOG[b]] needs no modulo. */
export const EXP = new Uint8Array(512);
/** LOG[a] = i with α^i = a, for a in 1..255 (LOG[0] is unused). */
export const LOG = new Uint8Array(256);

{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255] ?? 0;
}

/** Product of two field elements. */
export function gfMul(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : (EXP[(LOG[a] ?? 0) + (LOG[b] ?? 0)] ?? 0);
}
