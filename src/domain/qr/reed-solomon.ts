// Reed-Solomon error correction codewords of QR Code (ISO/IEC 18004 §7.5.2). Typed-array reads here are
// within bounds by construction; `?? 0` only tells the compiler so (no cost measured in the QR matrix).
import { EXP, gfMul, LOG } from './gf256';

const generators: Uint8Array[] = [];

/**
 * Coefficients of the generator polynomial (x - α^0)(x - α^1)…(x - α^(degree-1)), highest power first, the
 * leading 1 included: `degree + 1` entries.
 */
export function generatorPolynomial(degree: number): Uint8Array {
  const poly = new Uint8Array(degree + 1);
  poly[0] = 1;
  for (let i = 0; i < degree; i++) {
    // poly *= (x + α^i): each coefficient takes the one below it times α^i.
    const root = EXP[i] ?? 0;
    for (let j = i + 1; j > 0; j--) poly[j] = (poly[j] ?? 0) ^ gfMul(poly[j - 1] ?? 0, root);
  }
  return poly;
}

/**
 * Logs of the generator polynomial's coefficients after the leading 1, cached per degree. None of them is
 * zero for the degrees QR Code uses (7..30), which the loop in `reedSolomonRemainder` relies on.
 */
function generatorLogs(degree: number): Uint8Array {
  let logs = generators[degree];
  if (logs === undefined) {
    const poly = generatorPolynomial(degree);
    logs = new Uint8Array(degree);
    for (let i = 0; i < degree; i++) {
      const c = poly[i + 1] ?? 0;
      if (c === 0) throw new Error(`generator polynomial of degree ${degree} has a zero coefficient`);
      logs[i] = LOG[c] ?? 0;
    }
    generators[degree] = logs;
  }
  return logs;
}

/**
 * Writes the `degree` EC codewords of `data[start, start + length)` to `out[outStart…]`: the remainder of
 * data(x)·x^degree divided by the generator polynomial. `scratch` needs `length + degree` bytes.
 */
export function reedSolomonRemainder(
  data: Uint8Array,
  start: number,
  length: number,
  degree: number,
  out: Uint8Array,
  outStart: number,
  scratch: Uint8Array = new Uint8Array(length + degree),
): void {
  const logs = generatorLogs(degree);
  scratch.set(data.subarray(start, start + length));
  scratch.fill(0, length, length + degree);
  for (let i = 0; i < length; i++) {
    const coef = scratch[i] ?? 0;
    if (coef === 0) continue;
    const logCoef = LOG[coef] ?? 0;
    for (let j = 0, k = i + 1; j < degree; j++, k++)
      scratch[k] = (scratch[k] ?? 0) ^ (EXP[logCoef + (logs[j] ?? 0)] ?? 0);
  }
  out.set(scratch.subarray(length, length + degree), outStart);
}

/** The `degree` EC codewords of `data`. */
export function reedSolomonEc(data: Uint8Array, degree: number): Uint8Array {
  const out = new Uint8Array(degree);
  reedSolomonRemainder(data, 0, data.length, degree, out, 0);
  return out;
}
