// Times the BR Code + QR PNG work of POST /cash-in (not a test): npx tsx scripts/bench-qr.ts
import qrcode from 'qrcode-generator';
import { buildDynamicBrCode } from '../src/domain/brcode';
import { qrPngBase64 } from '../src/domain/qr-png';

/** Fastest of 7 timed runs (the least disturbed by other processes), in µs per call, after a JIT warm-up. */
function microsPerCall(fn: () => unknown, iterations = 1_000): number {
  const run = () => {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) fn();
    return ((performance.now() - start) * 1000) / iterations;
  };
  run();
  return Math.min(...Array.from({ length: 7 }, run));
}

const charge = {
  amountCents: 1_234_567,
  merchantName: 'ConnectPSP Pagamentos S.A.',
  merchantCity: 'São Paulo',
};
const cases = {
  minimal: buildDynamicBrCode({
    amountCents: 1000,
    merchantName: 'CPSP',
    merchantCity: 'SP',
    location: 'cpsp.io/c/7Hq',
  }),
  short: buildDynamicBrCode({ ...charge, location: 'pix.cpsp.com.br/c/7Hq2ZKp' }),
  long: buildDynamicBrCode({
    ...charge,
    location: 'pix.connectpsp.com.br/v2/cobv/9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  }),
};

for (const [name, payload] of Object.entries(cases)) {
  const matrix = microsPerCall(() => {
    const qr = qrcode(0, 'M');
    qr.addData(payload, 'Byte');
    qr.make();
  });
  const total = microsPerCall(() => qrPngBase64(payload));
  const pngBytes = Math.floor((qrPngBase64(payload).length * 3) / 4);
  console.log(
    `${name}: ${payload.length}-char payload, ${pngBytes}-byte PNG: qrPngBase64 ${total.toFixed(0)} µs/call ` +
      `(qrcode-generator make ${matrix.toFixed(0)} µs, PNG + base64 ${(total - matrix).toFixed(0)} µs)`,
  );
}
const build = microsPerCall(
  () => buildDynamicBrCode({ ...charge, location: 'pix.cpsp.com.br/c/7Hq2ZKp' }),
  20_000,
);
console.log(`buildDynamicBrCode: ${build.toFixed(1)} µs/call`);
