// A family of bench worlds: each member draws its structure, not only its seed. On top of a bench world
// (partners, clients, routing, weekday and holiday shapes, bursts) it draws the laws real Pix traffic
// varies in: how long payers take to pay (lognormal of several medians and spreads, or with a Pareto
// tail), how payers spread over banks (steep Zipf to flat), each client's conversion and charge expiry,
// common-mode AR(1) and day-to-day noise, the platform's volume, and night- or lunch-heavy clients.
// Cash-In latency is measured from the charge's creation, as the gateway reports it.
import { hashUniform, mix32, rngFor } from '../random';
import { HOUR_MS, MINUTE_MS, type PayDelayLaw, type World } from '../world';
import { benchWorld } from './worlds';

/** The ranges a family member is drawn from (printed by `npm run health:score -- --family N`). */
export const FAMILY_RANGES = {
  volume: [0.3, 3] as const, // x the reference platform (150 transactions a minute at the evening peak)
  bankZipf: [0.3, 1.8] as const, // exponent s of bank weights 1/rank^s: flat .. steep
  banks: [10, 20] as const,
  payDelayMedianMs: [20_000, 150_000] as const,
  payDelaySigma: [0.5, 1.5] as const,
  tailShare: [0.01, 0.08] as const, // heavy-tailed worlds: share of payers in a Pareto tail
  tailAlpha: [1.1, 2] as const,
  conversion: [0.7, 0.85] as const, // per client
  expiryMs: [10 * MINUTE_MS, 24 * HOUR_MS] as const, // per client, log-uniform
  commonSigma: [0, 0.06] as const, // AR(1) over 5-minute windows
  commonPhi: [0.5, 0.95] as const,
  daySigma: [0, 0.06] as const,
  nightOrLunch: [0, 0.35] as const, // extra activity of a night- or lunch-heavy client, x the platform's peak
};

export interface FamilyDraw {
  volume: number;
  bankZipf: number;
  banks: number;
  payDelay: PayDelayLaw;
  conversion: [number, number];
  expiryMs: [number, number];
  commonSigma: number;
  commonPhi: number;
  daySigma: number;
  nightClients: number;
  lunchClients: number;
}

const between = (r: readonly [number, number], u: number) => r[0] + (r[1] - r[0]) * u;

/** One member of the family: the bench world of `seed`, with its structure redrawn. */
export function familyWorld(seed: number, start: number, days: number): { world: World; draw: FamilyDraw } {
  const base = benchWorld(seed, start, days);
  const rng = rngFor(mix32(seed, 0xfa417));
  const R = FAMILY_RANGES;
  // Volume log-uniform over 0.3x-3x of 150 a minute at the peak.
  const volume = R.volume[0] * (R.volume[1] / R.volume[0]) ** rng();
  const banks = Math.round(between(R.banks, rng()));
  const bankZipf = between(R.bankZipf, rng());
  const institutions = Array.from({ length: banks }, (_, i) => ({
    ispb: String(81000000 + i * 13),
    name: `Banco ${i + 1}`,
    weight: 1 / (i + 1) ** bankZipf,
  }));
  const lawU = rng();
  const medianMs = between(R.payDelayMedianMs, rng());
  const sigma = between(R.payDelaySigma, rng());
  const payDelay: PayDelayLaw =
    lawU < 0.5
      ? { kind: 'lognormal', medianMs, sigma }
      : {
          kind: 'heavy',
          medianMs,
          sigma,
          tailShare: between(R.tailShare, rng()),
          tailAlpha: between(R.tailAlpha, rng()),
        };
  const conv: number[] = [];
  const exp: number[] = [];
  let nightClients = 0;
  let lunchClients = 0;
  const clients = base.clients.map((c, i) => {
    const payProbability = between(R.conversion, hashUniform(seed, 0xc0, i));
    const cashInExpiryMs = Math.round(
      R.expiryMs[0] * (R.expiryMs[1] / R.expiryMs[0]) ** hashUniform(seed, 0xc1, i),
    );
    conv.push(payProbability);
    exp.push(cashInExpiryMs);
    const kind = hashUniform(seed, 0xc2, i);
    const extra = between(R.nightOrLunch, hashUniform(seed, 0xc3, i));
    const shape = kind < 0.25 ? { night: extra } : kind < 0.5 ? { lunch: extra } : undefined;
    if (shape?.night) nightClients++;
    if (shape?.lunch) lunchClients++;
    return { ...c, payProbability, cashInExpiryMs, ...(shape ? { shape } : {}) };
  });
  const commonSigma = between(R.commonSigma, rng());
  const commonPhi = between(R.commonPhi, rng());
  const daySigma = between(R.daySigma, rng());
  const world: World = {
    ...base,
    institutions,
    clients,
    peakPerMinute: 150 * volume,
    payDelay,
    cashInLatencyFromCreation: true,
    texture: { ...base.texture, commonMode: { sigma: commonSigma, phi: commonPhi, daySigma } },
  };
  const range = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];
  return {
    world,
    draw: {
      volume,
      bankZipf,
      banks,
      payDelay,
      conversion: range(conv),
      expiryMs: range(exp),
      commonSigma,
      commonPhi,
      daySigma,
      nightClients,
      lunchClients,
    },
  };
}

/** The family's parameter ranges as drawn (min..max over its members), one line per parameter. */
export function describeFamily(draws: readonly FamilyDraw[]): string[] {
  if (draws.length === 0) return [];
  const span = (xs: number[], f: (x: number) => string) => `${f(Math.min(...xs))}..${f(Math.max(...xs))}`;
  const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
  const num = (d: number) => (x: number) => x.toFixed(d);
  const dur = (ms: number) =>
    ms >= HOUR_MS
      ? `${(ms / HOUR_MS).toFixed(1)}h`
      : ms >= MINUTE_MS
        ? `${Math.round(ms / MINUTE_MS)}min`
        : `${Math.round(ms / 1000)}s`;
  const heavy = draws.filter((d) => d.payDelay.kind === 'heavy');
  const tails = heavy.map((d) => d.payDelay as Extract<PayDelayLaw, { kind: 'heavy' }>);
  const medians = draws.map((d) =>
    d.payDelay.kind === 'exponential' ? d.payDelay.meanMs : d.payDelay.medianMs,
  );
  const sigmas = draws.map((d) => (d.payDelay.kind === 'exponential' ? 1 : d.payDelay.sigma));
  return [
    `volume x${span(
      draws.map((d) => d.volume),
      num(2),
    )} of 150 tx/min at the peak`,
    `banks ${span(
      draws.map((d) => d.banks),
      num(0),
    )}, bank-share Zipf s ${span(
      draws.map((d) => d.bankZipf),
      num(2),
    )}`,
    `pay delay: lognormal median ${span(medians, dur)}, sigma ${span(sigmas, num(2))}; ` +
      `${heavy.length}/${draws.length} heavy-tailed (Pareto tail ${
        tails.length
          ? span(
              tails.map((t) => t.tailShare),
              pct,
            )
          : '-'
      }, ` +
      `alpha ${
        tails.length
          ? span(
              tails.map((t) => t.tailAlpha),
              num(2),
            )
          : '-'
      })`,
    `conversion per client ${span(
      draws.flatMap((d) => d.conversion),
      pct,
    )}, expiry per client ${span(
      draws.flatMap((d) => d.expiryMs),
      dur,
    )}`,
    `common-mode AR(1) sigma ${span(
      draws.map((d) => d.commonSigma),
      pct,
    )} phi ${span(
      draws.map((d) => d.commonPhi),
      num(2),
    )}, ` +
      `day-to-day ${span(
        draws.map((d) => d.daySigma),
        pct,
      )}`,
    `night-heavy clients ${span(
      draws.map((d) => d.nightClients),
      num(0),
    )} a world, lunch-heavy ${span(
      draws.map((d) => d.lunchClients),
      num(0),
    )}`,
  ];
}

/** Seeds of a family's members: `n` worlds hashed from the family seed (distinct from the bench's seeds). */
export function familySeeds(familySeed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => 1_000_000 + (mix32(familySeed, i) % 1_000_000_000));
}
