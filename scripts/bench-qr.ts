// Times the BR Code + QR PNG work of POST /cash-in (not a test): npx tsx scripts/bench-qr.ts
import { cpuUsage } from 'node:process';
import { buildDynamicBrCode } from '../src/domain/brcode';
import { encodeQr } from '../src/domain/qr/encode';
import { qrPngBase64 } from '../src/domain/qr-png';

/**
 * CPU µs per call (CPU time, not wall time, so other processes on the machine matter less): the fastest of
 * 7 runs after a JIT warm-up run.
 */
function microsPerCall(fn: () => unknown, iterations = 300): number {
  const run = () => {
    const start = cpuUsage();
    for (let i = 0; i < iterations; i++) fn();
    const used = cpuUsage(start);
    return (used.user + used.system) / iterations;
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
  // Every field at its limit: a 77-character location, 25-character name, 15-character city, 13-character amount.
  max: buildDynamicBrCode({
    amountCents: 999_999_999_999,
    merchantName: 'CONNECTPSP PAGAMENTOS S.A',
    merchantCity: 'SAO JOSE DOS CA',
    location: `pix.connectpsp.com.br/v2/cobv/${'9f8e7d6c5b4a3928'.repeat(3)}`.slice(0, 77),
  }),
};

const encoder = new TextEncoder();
for (const [name, payload] of Object.entries(cases)) {
  const bytes = encoder.encode(payload);
  const { version, mask } = encodeQr(bytes);
  const matrix = microsPerCall(() => encodeQr(encoder.encode(payload)), 3000);
  const total = microsPerCall(() => qrPngBase64(payload), 1000);
  const pngBytes = Math.floor((qrPngBase64(payload).length * 3) / 4);
  console.log(
    `${name}: ${payload.length}-char payload (${bytes.length} bytes, version ${version}-M, mask ${mask}), ` +
      `${pngBytes}-byte PNG: qrPngBase64 ${total.toFixed(0)} µs/call ` +
      `(encodeQr ${matrix.toFixed(0)} µs, PNG + base64 ${(total - matrix).toFixed(0)} µs)`,
  );
}
const build = microsPerCall(
  () => buildDynamicBrCode({ ...charge, location: 'pix.cpsp.com.br/c/7Hq2ZKp' }),
  20_000,
);
console.log(`buildDynamicBrCode: ${build.toFixed(1)} µs/call`);
