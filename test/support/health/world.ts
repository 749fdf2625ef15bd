// Worlds of the PIX traffic simulator: partners, payer/payee banks, clients, and the texture of real
// traffic (daily, weekly and holiday shapes, over-dispersed counts, slow conversion drift, bursts).
import type { FailureCode } from '../../../src/domain/failure-codes';
import type { Operation } from '../../../src/health/types';
import { mix32, rngFor } from './random';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export interface PartnerSpec {
  ispb: string;
  name: string;
}

export interface InstitutionSpec {
  ispb: string;
  name: string;
  /** Relative share of payers/payees (Zipf-like across institutions). */
  weight: number;
}

/** A client's own traffic event that is not a fault (a betting client at the end of a match). */
export interface Burst {
  at: number;
  durationMs: number;
  /** Multiplies the client's arrival rate. */
  factor: number;
  operation?: Operation;
}

export interface ClientSpec {
  clientId: string;
  /** Relative share of the platform's transactions. */
  weight: number;
  /** Share of the client's transactions that are Cash-In. */
  cashInShare: number;
  /** Routing: partner ISPB -> relative weight. */
  partners: Record<string, number>;
  /** Slow drift of the Cash-In conversion: payProbability x (1 + amplitude sin(2 pi t / period + phase)). */
  drift?: { amplitude: number; periodDays: number; phase: number };
  bursts?: Burst[];
  /** This client's own conversion (share of Cash-In charges paid); the world's when absent. */
  payProbability?: number;
  /** This client's charge expiry (ms); the world's when absent. */
  cashInExpiryMs?: number;
  /**
   * How the client's day departs from the platform's: extra night (0-6 h local) or lunch (11-14 h)
   * activity, as a multiple of the platform's peak (a gaming client busy at night, a food client at lunch).
   */
  shape?: { night?: number; lunch?: number };
}

/**
 * When a payer pays a Cash-In charge, measured from its creation: exponential (the reference world),
 * lognormal, or lognormal with a Pareto tail (payers who come back hours later).
 */
export type PayDelayLaw =
  | { kind: 'exponential'; meanMs: number }
  | { kind: 'lognormal'; medianMs: number; sigma: number }
  | { kind: 'heavy'; medianMs: number; sigma: number; tailShare: number; tailAlpha: number };

/** How real traffic departs from a plain Poisson day. All optional; absent = the reference world. */
export interface Texture {
  /** Gamma shape k of a per-(client, operation) rate multiplier redrawn every dispersionMs (variance 1/k). */
  dispersion?: number;
  dispersionMs?: number;
  /** Rate multipliers by Sao Paulo weekday (0 = Sunday). */
  weekday?: number[];
  /** UTC midnights of Sao Paulo holidays, and the multiplier of those days. */
  holidays?: number[];
  holidayFactor?: number;
  /** Floor of the daily shape (0.06 in the reference world: about 8 % of the peak at 4 a.m.). */
  nightFloor?: number;
  /**
   * Common-mode noise: every client's rate moves together by exp(x), x an AR(1) over 5-minute windows
   * (standard deviation `sigma`, lag-one correlation `phi`), and by exp(y) per local day (`daySigma`).
   */
  commonMode?: { sigma: number; phi: number; daySigma: number };
}

export interface World {
  partners: PartnerSpec[];
  institutions: InstitutionSpec[];
  clients: ClientSpec[];
  /** Platform transactions per minute at the evening peak. */
  peakPerMinute: number;
  /** Probability that a Cash-In charge is paid. */
  payProbability: number;
  payDelayMeanMs: number;
  cashInExpiryMs: number;
  /** Background Cash-Out failure probabilities per code. */
  cashOutFailures: Partial<Record<FailureCode, number>>;
  /** Background Cash-In failure probability (charge registration), reported as PROVIDER_UNAVAILABLE. */
  cashInFailure: number;
  /** Log-normal settlement latency: median and sigma of the log. */
  cashInLatency: { medianMs: number; sigma: number };
  cashOutLatency: { medianMs: number; sigma: number };
  returnProbability: number;
  texture?: Texture;
  /** Payment delay law of Cash-In; absent: exponential with mean payDelayMeanMs. */
  payDelay?: PayDelayLaw;
  /**
   * Cash-In settlement latencyMs measured from the charge's creation (what the gateway reports:
   * settlement time minus request time), rather than the bank's own settlement time.
   */
  cashInLatencyFromCreation?: boolean;
}

function bump(hour: number, centre: number, width: number): number {
  let d = Math.abs(hour - centre);
  if (d > 12) d = 24 - d;
  return Math.exp(-(d * d) / (2 * width * width));
}

/**
 * Relative activity (peak ~1) at a UTC instant, shaped on Sao Paulo local time (UTC-3): ~0.08 at 4 a.m.,
 * ~0.6 around midday, peak around 9 p.m.
 */
export function dailyShape(ms: number, nightFloor = 0.06): number {
  const local = (((ms - 3 * HOUR_MS) % DAY_MS) + DAY_MS) % DAY_MS;
  const h = local / HOUR_MS;
  return nightFloor + 0.55 * bump(h, 12.5, 3.5) + 0.93 * bump(h, 21, 2);
}

/** Daily shape x weekday x holiday multiplier of the world at `ms`. */
export function activity(world: World, ms: number): number {
  const t = world.texture;
  if (!t) return dailyShape(ms);
  let a = dailyShape(ms, t.nightFloor);
  const localDay = Math.floor((ms - 3 * HOUR_MS) / DAY_MS);
  if (t.weekday) a *= t.weekday[(((localDay + 4) % 7) + 7) % 7] ?? 1; // 1970-01-01 was a Thursday
  if (t.holidays?.includes(localDay * DAY_MS)) a *= t.holidayFactor ?? 0.5;
  return a;
}

function zipfWeights(n: number, s: number): number[] {
  return Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
}

const BACKGROUND_CASH_OUT_FAILURES: Partial<Record<FailureCode, number>> = {
  PIX_KEY_NOT_FOUND: 0.008,
  PAYEE_ACCOUNT_INVALID: 0.004,
  INSUFFICIENT_FUNDS: 0.004,
  PAYEE_DOCUMENT_MISMATCH: 0.002,
  PAYEE_BANK_UNAVAILABLE: 0.001,
  PROVIDER_UNAVAILABLE: 0.001,
  PROCESSING_ERROR: 0.001,
};

function baseWorld(): Omit<World, 'partners' | 'institutions' | 'clients' | 'peakPerMinute'> {
  return {
    payProbability: 0.85,
    payDelayMeanMs: 60_000,
    cashInExpiryMs: 30 * MINUTE_MS,
    cashOutFailures: { ...BACKGROUND_CASH_OUT_FAILURES },
    cashInFailure: 0.002,
    cashInLatency: { medianMs: 1_200, sigma: 0.4 },
    cashOutLatency: { medianMs: 2_500, sigma: 0.5 },
    returnProbability: 0.002,
  };
}

/**
 * The reference world of the tests: 3 partners, 10 banks with Zipf(1.2) sizes (the largest ~40 % of
 * payers, the smallest ~2.5 %), 6 clients of very different sizes, some single-homed on one partner.
 */
export function defaultWorld(peakPerMinute = 150): World {
  const partners: PartnerSpec[] = [
    { ispb: '90000001', name: 'Banco Parceiro Alfa' },
    { ispb: '90000002', name: 'Banco Parceiro Beta' },
    { ispb: '90000003', name: 'Banco Parceiro Gama' },
  ];
  const institutions = zipfWeights(10, 1.2).map((weight, i) => ({
    ispb: `8000000${i}`,
    name: `Banco Pagador ${String(i + 1).padStart(2, '0')}`,
    weight,
  }));
  const [a, b, c] = partners.map((p) => p.ispb) as [string, string, string];
  const clients: ClientSpec[] = [
    { clientId: 'client-a', weight: 0.35, cashInShare: 0.6, partners: { [a]: 0.6, [b]: 0.4 } },
    { clientId: 'client-b', weight: 0.25, cashInShare: 0.7, partners: { [b]: 1 } },
    { clientId: 'client-c', weight: 0.15, cashInShare: 0.5, partners: { [a]: 0.5, [c]: 0.5 } },
    { clientId: 'client-d', weight: 0.12, cashInShare: 0.6, partners: { [c]: 1 } },
    { clientId: 'client-e', weight: 0.08, cashInShare: 0.4, partners: { [a]: 1, [b]: 1, [c]: 1 } },
    { clientId: 'client-f', weight: 0.05, cashInShare: 0.8, partners: { [b]: 1 } },
  ];
  return { partners, institutions, clients, peakPerMinute, ...baseWorld() };
}

/** A larger world for benchmarks: n partners, m banks (Zipf), k clients (Zipf) with 1-3 partners each. */
export function scaledWorld(opts: {
  partners: number;
  institutions: number;
  clients: number;
  peakPerMinute: number;
  seed?: number;
}): World {
  const rng = rngFor(mix32(opts.seed ?? 1, 0xabcdef));
  const partners = Array.from({ length: opts.partners }, (_, i) => ({
    ispb: String(90000000 + i + 1),
    name: `Banco Parceiro ${i + 1}`,
  }));
  const institutions = zipfWeights(opts.institutions, 1.1).map((weight, i) => ({
    ispb: String(70000000 + i),
    name: `Banco ${i + 1}`,
    weight,
  }));
  const clients = zipfWeights(opts.clients, 0.9).map((weight, i) => {
    const routes: Record<string, number> = {};
    const n = 1 + Math.floor(rng() * Math.min(3, opts.partners));
    for (let j = 0; j < n; j++) routes[partners[Math.floor(rng() * partners.length)]!.ispb] = 0.2 + rng();
    return {
      clientId: `client-${String(i + 1).padStart(3, '0')}`,
      weight,
      cashInShare: 0.3 + 0.5 * rng(),
      partners: routes,
    };
  });
  return { partners, institutions, clients, peakPerMinute: opts.peakPerMinute, ...baseWorld() };
}

/** Names by ISPB, for the analyzer's display names. */
export function worldNames(world: World): Record<string, string> {
  const names: Record<string, string> = {};
  for (const p of world.partners) names[p.ispb] = p.name;
  for (const i of world.institutions) names[i.ispb] = i.name;
  return names;
}
