// Worlds of the health score bench: every seed draws its own partners, banks, clients, volumes and
// texture (over-dispersion, weekday and holiday shapes, quiet nights, drifting conversion, a betting
// client's bursts), so tuning on a few seeds does not fit one world.
import { cumulate, hashUniform, mix32, pickWeighted, rngFor } from '../random';
import { type Burst, type ClientSpec, DAY_MS, HOUR_MS, MINUTE_MS, type World } from '../world';

function zipf(n: number, s: number): number[] {
  return Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
}

/** Evening bursts of the betting client: most days, 10-20 minutes at 3-6x, deposits before a match, payouts after. */
function bettingBursts(seed: number, start: number, days: number): Burst[] {
  const out: Burst[] = [];
  for (let d = 0; d < days; d++) {
    for (let k = 0; k < 2; k++) {
      if (hashUniform(seed, d, k, 1) < 0.35) continue;
      const localHour = 16 + 6 * hashUniform(seed, d, k, 2);
      const at = start + d * DAY_MS + Math.floor(((localHour + 3) * HOUR_MS) / MINUTE_MS) * MINUTE_MS;
      out.push({
        at,
        durationMs: (10 + Math.floor(10 * hashUniform(seed, d, k, 3))) * MINUTE_MS,
        factor: 3 + 3 * hashUniform(seed, d, k, 4),
        operation: hashUniform(seed, d, k, 5) < 0.5 ? 'CASH_IN' : 'CASH_OUT',
      });
    }
  }
  return out;
}

/** One bench world. `start` is the first UTC midnight simulated, `days` how many are simulated. */
export function benchWorld(seed: number, start: number, days: number): World {
  const rng = rngFor(mix32(seed, 0x77));
  const nPartners = 3 + Math.floor(rng() * 3);
  const nBanks = 10 + Math.floor(rng() * 7);
  const nClients = 7 + Math.floor(rng() * 6);
  const partners = Array.from({ length: nPartners }, (_, i) => ({
    ispb: String(91000000 + i * 7 + 1),
    name: `Parceiro ${String.fromCharCode(65 + i)}`,
  }));
  const institutions = zipf(nBanks, 1 + 0.3 * rng()).map((weight, i) => ({
    ispb: String(81000000 + i * 13),
    name: `Banco ${i + 1}`,
    weight,
  }));
  const partnerCum = cumulate(partners.map(() => 1));
  const clients: ClientSpec[] = zipf(nClients, 0.8).map((weight, i) => {
    const routes: Record<string, number> = { [partners[i % nPartners]!.ispb]: 0.5 + rng() };
    const extra = Math.floor(rng() * 3);
    for (let j = 0; j < extra; j++) routes[partners[pickWeighted(partnerCum, rng())]!.ispb] = 0.2 + rng();
    const c: ClientSpec = {
      clientId: `cli-${seed}-${String(i + 1).padStart(2, '0')}`,
      weight,
      cashInShare: 0.35 + 0.45 * rng(),
      partners: routes,
    };
    if (i % 3 === 1)
      c.drift = { amplitude: 0.06 + 0.06 * rng(), periodDays: 3 + 6 * rng(), phase: 6 * rng() };
    if (i === 1) c.bursts = bettingBursts(seed, start, days);
    return c;
  });
  const weekday = [0.72, 1, 1.02, 1, 1.04, 1.12, 0.85].map((w) => w * (0.95 + 0.1 * rng()));
  return {
    partners,
    institutions,
    clients,
    peakPerMinute: 90 + 160 * rng(),
    payProbability: 0.75 + 0.15 * rng(),
    payDelayMeanMs: 45_000 + 60_000 * rng(),
    cashInExpiryMs: 30 * MINUTE_MS,
    cashOutFailures: {
      PIX_KEY_NOT_FOUND: 0.006 + 0.01 * rng(),
      PAYEE_ACCOUNT_INVALID: 0.004,
      INSUFFICIENT_FUNDS: 0.002 + 0.006 * rng(),
      PAYEE_DOCUMENT_MISMATCH: 0.002,
      PAYEE_BANK_UNAVAILABLE: 0.001,
      PROVIDER_UNAVAILABLE: 0.001,
      PROCESSING_ERROR: 0.001,
    },
    cashInFailure: 0.001 + 0.004 * rng(),
    cashInLatency: { medianMs: 900 + 800 * rng(), sigma: 0.35 + 0.2 * rng() },
    cashOutLatency: { medianMs: 1_800 + 1_500 * rng(), sigma: 0.4 + 0.2 * rng() },
    returnProbability: 0.001 + 0.004 * rng(),
    texture: {
      dispersion: 25 + 40 * rng(),
      dispersionMs: 5 * MINUTE_MS,
      weekday,
      holidays: [start + 4 * DAY_MS],
      holidayFactor: 0.5 + 0.15 * rng(),
      nightFloor: 0.015 + 0.05 * rng(),
    },
  };
}
