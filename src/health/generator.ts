// Synthetic PIX traffic for tests, demos and the benchmark. Pure and seeded: the same options give the
// same observations, byte for byte.
//
// Model: for every minute, each (client, operation) gets Poisson(lambda) new transactions, lambda =
// peakPerMinute * dailyShape(local time) * client weight * operation share; arrival times are uniform
// within the minute (a Poisson process with a piecewise-constant rate). Each transaction picks a partner
// by the client's routing and a bank by a Zipf-like weight. Cash-In: CREATED, then SETTLED by the payer's
// bank after a payment delay (~85 %) or EXPIRED 5-7 minutes after the charge's expiry. Cash-Out: CREATED,
// then SETTLED or FAILED with a catalog code after a processing delay.
//
// Every minute has its own RNG stream (seed x minute), and every transaction draws the same random
// numbers whatever the faults, so a fault never changes the traffic outside its own effect and a run
// started later (with a lead-in) reproduces exactly the events of a longer run.
import type { FailureCode } from './failure-codes';
import type { Observation, Operation } from './types';

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

export interface ClientSpec {
  clientId: string;
  /** Relative share of the platform's transactions. */
  weight: number;
  /** Share of the client's transactions that are Cash-In. */
  cashInShare: number;
  /** Routing: partner ISPB -> relative weight. */
  partners: Record<string, number>;
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
}

/** Parameters a fault can override; all optional, absent = no effect. */
export interface FaultEffect {
  /** Probability that a matching transaction fails (Cash-Out outcome, or Cash-In charge registration). */
  failRate?: number;
  /** Code(s) of those failures; several are picked uniformly. */
  failureCodes?: string[];
  /** Cash-In: multiplies the payment probability of matching payments (0 = the payer bank is silent). */
  payFactor?: number;
  /** Multiplies the arrival rate of matching new transactions. */
  volumeFactor?: number;
  /** Multiplies settlement latency. */
  latencyFactor?: number;
}

export interface Fault extends FaultEffect {
  from: number;
  to: number;
  operation?: Operation;
  partnerIspb?: string;
  /** Payee bank (Cash-Out) or payer bank (Cash-In payments). */
  institutionIspbs?: string[];
  clientId?: string;
  /** Later changes of the effect (a degradation that deepens). */
  steps?: (FaultEffect & { at: number })[];
}

export interface GenerateOptions {
  world: World;
  seed: number;
  /** Emit observations with from <= at < to (ms). */
  from: number;
  to: number;
  faults?: Fault[];
  /** Transactions created this long before `from` are simulated so their outcomes appear (default 1 h). */
  leadInMs?: number;
}

// ---- randomness ----------------------------------------------------------------------------------

function mix32(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** mulberry32: small, fast, good enough for simulation. */
function rngFor(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(rng: () => number): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const LOG_FACT = [0, 0, Math.LN2, 1.791759469228055, 3.1780538303479458, 4.787491742782046];

function logFactorial(k: number): number {
  if (k < LOG_FACT.length) return LOG_FACT[k]!;
  const x = k + 1;
  return (x - 0.5) * Math.log(x) - x + 0.9189385332046727 + 1 / (12 * x) - 1 / (360 * x * x * x);
}

/** Poisson sample: multiplication method for small lambda, PTRS (Hormann 1993) above. */
export function poisson(lambda: number, rng: () => number): number {
  if (lambda <= 0) return 0;
  if (lambda < 30) {
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = rng();
    while (p > limit) {
      k++;
      p *= rng();
    }
    return k;
  }
  const slam = Math.sqrt(lambda);
  const loglam = Math.log(lambda);
  const b = 0.931 + 2.53 * slam;
  const a = -0.059 + 0.02483 * b;
  const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = rng() - 0.5;
    const v = rng();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (
      Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <=
      -lambda + k * loglam - logFactorial(k)
    ) {
      return k;
    }
  }
}

function pickWeighted(cumulative: readonly number[], u: number): number {
  const total = cumulative[cumulative.length - 1]!;
  const x = u * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function cumulate(weights: readonly number[]): number[] {
  let s = 0;
  return weights.map((w) => {
    s += w;
    return s;
  });
}

// ---- daily shape ---------------------------------------------------------------------------------

const MINUTE_MS = 60_000;
const HOUR = 3_600_000;

function bump(hour: number, centre: number, width: number): number {
  let d = Math.abs(hour - centre);
  if (d > 12) d = 24 - d;
  return Math.exp(-(d * d) / (2 * width * width));
}

/**
 * Relative activity (peak ~1) at a UTC instant, shaped on Sao Paulo local time (UTC-3): ~0.08 at 4 a.m.,
 * ~0.6 around midday, peak around 9 p.m.
 */
export function dailyShape(ms: number): number {
  const local = (((ms - 3 * HOUR) % 86_400_000) + 86_400_000) % 86_400_000;
  const h = local / HOUR;
  return 0.06 + 0.55 * bump(h, 12.5, 3.5) + 0.93 * bump(h, 21, 2);
}

// ---- worlds --------------------------------------------------------------------------------------

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
  const weights = zipfWeights(10, 1.2);
  const institutions = weights.map((weight, i) => ({
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
  const cw = zipfWeights(opts.clients, 0.9);
  const clients = cw.map((weight, i) => {
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

// ---- faults --------------------------------------------------------------------------------------

interface Matched {
  failRate: number;
  failureCode: string | null;
  payFactor: number;
  volumeFactor: number;
  latencyFactor: number;
}

const NO_EFFECT: Matched = {
  failRate: 0,
  failureCode: null,
  payFactor: 1,
  volumeFactor: 1,
  latencyFactor: 1,
};

function effectAt(f: Fault, at: number): FaultEffect {
  if (!f.steps || f.steps.length === 0) return f;
  let effect: FaultEffect = f;
  for (const s of f.steps) if (s.at <= at) effect = { ...effect, ...s };
  return effect;
}

function matchFaults(
  faults: readonly Fault[],
  at: number,
  op: Operation,
  partner: string,
  institution: string,
  client: string,
  codePick: number,
): Matched {
  if (faults.length === 0) return NO_EFFECT;
  let m: Matched | null = null;
  let bestRate = 0;
  for (const f of faults) {
    if (at < f.from || at >= f.to) continue;
    if (f.operation && f.operation !== op) continue;
    if (f.partnerIspb && f.partnerIspb !== partner) continue;
    if (f.clientId && f.clientId !== client) continue;
    if (f.institutionIspbs && !f.institutionIspbs.includes(institution)) continue;
    const e = effectAt(f, at);
    m ??= { ...NO_EFFECT };
    const r = e.failRate ?? 0;
    m.failRate = 1 - (1 - m.failRate) * (1 - r);
    if (r > bestRate) {
      bestRate = r;
      const codes = e.failureCodes ?? ['PROCESSING_ERROR'];
      m.failureCode = codes[Math.min(codes.length - 1, Math.floor(codePick * codes.length))]!;
    }
    m.payFactor *= e.payFactor ?? 1;
    m.volumeFactor *= e.volumeFactor ?? 1;
    m.latencyFactor *= e.latencyFactor ?? 1;
  }
  return m ?? NO_EFFECT;
}

const WINDOW = 5 * MINUTE_MS;

/** Ready-made faults. Times in ms; `to` exclusive. */
export const faults = {
  /** A settlement partner failing for every bank (PROVIDER_UNAVAILABLE). */
  partnerFailure(partnerIspb: string, operation: Operation, from: number, to: number, failRate = 1): Fault {
    return { from, to, operation, partnerIspb, failRate, failureCodes: ['PROVIDER_UNAVAILABLE'] };
  },
  /** Payers of one bank cannot pay (Cash-In): nothing settles from it, charges expire later. */
  institutionSilence(ispb: string, from: number, to: number): Fault {
    return { from, to, operation: 'CASH_IN', institutionIspbs: [ispb], payFactor: 0 };
  },
  /** Transfers to one bank fail (Cash-Out) with a bank-side code. */
  institutionErrors(ispb: string, from: number, to: number, failRate = 0.8): Fault {
    return {
      from,
      to,
      operation: 'CASH_OUT',
      institutionIspbs: [ispb],
      failRate,
      failureCodes: ['PAYEE_BANK_UNAVAILABLE'],
    };
  },
  /** Several banks failing together (e.g. a shared technology provider). */
  cohort(ispbs: string[], operation: Operation, from: number, to: number, rate = 0.8): Fault {
    return operation === 'CASH_IN'
      ? { from, to, operation, institutionIspbs: ispbs, payFactor: 1 - rate }
      : {
          from,
          to,
          operation,
          institutionIspbs: ispbs,
          failRate: rate,
          failureCodes: ['PAYEE_BANK_UNAVAILABLE'],
        };
  },
  /** One client's own volume collapses (its integration stops sending). */
  merchantCollapse(
    clientId: string,
    operation: Operation,
    from: number,
    to: number,
    volumeFactor = 0.05,
  ): Fault {
    return { from, to, operation, clientId, volumeFactor };
  },
  /** One client's Cash-In charges stop being paid (broken QR codes, checkout). */
  merchantConversionCollapse(clientId: string, from: number, to: number, payFactor = 0.05): Fault {
    return { from, to, operation: 'CASH_IN', clientId, payFactor };
  },
  /** The gateway stops taking new transactions (intake collapse everywhere). */
  connectpspIntakeOutage(from: number, to: number, volumeFactor = 0.03, operation?: Operation): Fault {
    return operation ? { from, to, operation, volumeFactor } : { from, to, volumeFactor };
  },
  /** The gateway fails transactions itself (PROCESSING_ERROR on every partner). */
  connectpspProcessingErrors(operation: Operation, from: number, to: number, failRate = 0.7): Fault {
    return { from, to, operation, failRate, failureCodes: ['PROCESSING_ERROR'] };
  },
  /** The PIX network itself: every partner reports network-side failures; payments stop settling. */
  pixSystemic(operation: Operation, from: number, to: number, rate = 0.8): Fault {
    return operation === 'CASH_IN'
      ? { from, to, operation, payFactor: 1 - rate }
      : {
          from,
          to,
          operation,
          failRate: rate,
          failureCodes: ['PAYEE_BANK_UNAVAILABLE', 'PROVIDER_UNAVAILABLE'],
        };
  },
  /** Restrict any fault to the single 5-minute window starting at `windowStart`. */
  blip(fault: Omit<Fault, 'from' | 'to'>, windowStart: number): Fault {
    const from = Math.floor(windowStart / WINDOW) * WINDOW;
    return { ...fault, from, to: from + WINDOW };
  },
};

// ---- generation ----------------------------------------------------------------------------------

interface Pending {
  at: number;
  seq: number;
  obs: Observation;
}

/** Binary min-heap on (at, seq): emits events in time order, stable for equal times. */
class EventHeap {
  private items: Pending[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Pending | undefined {
    return this.items[0];
  }
  push(p: Pending): void {
    const a = this.items;
    a.push(p);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }
  pop(): Pending | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && less(a[l]!, a[m]!)) m = l;
        if (r < a.length && less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

function less(x: Pending, y: Pending): boolean {
  return x.at < y.at || (x.at === y.at && x.seq < y.seq);
}

// toISOString per event dominates generation; the "YYYY-MM-DDTHH:MM:" prefix is cached per minute.
const isoPrefixes = new Map<number, string>();

function iso(ms: number): string {
  const minute = Math.floor(ms / MINUTE_MS);
  let prefix = isoPrefixes.get(minute);
  if (prefix === undefined) {
    if (isoPrefixes.size > 4096) isoPrefixes.clear();
    prefix = new Date(minute * MINUTE_MS).toISOString().slice(0, 17);
    isoPrefixes.set(minute, prefix);
  }
  const rest = ms - minute * MINUTE_MS;
  const sec = Math.floor(rest / 1000);
  const milli = rest - sec * 1000;
  return `${prefix}${sec < 10 ? '0' : ''}${sec}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/** Observations in time order, exactly the decisions §7 shape. */
export function* generateObservations(opts: GenerateOptions): Generator<Observation> {
  const { world, seed, from, to } = opts;
  const allFaults = opts.faults ?? [];
  const lead = opts.leadInMs ?? HOUR;
  const heap = new EventHeap();
  let seq = 0;
  const instCum = cumulate(world.institutions.map((i) => i.weight));
  const routes = world.clients.map((c) => {
    const ids = Object.keys(c.partners);
    return { ids, cum: cumulate(ids.map((id) => c.partners[id]!)) };
  });
  const totalClientWeight = world.clients.reduce((s, c) => s + c.weight, 0);
  const failureCodes = Object.keys(world.cashOutFailures) as FailureCode[];
  const failureCum = cumulate(failureCodes.map((c) => world.cashOutFailures[c]!));
  const backgroundFailure = failureCum[failureCum.length - 1] ?? 0;

  const emit = (at: number, obs: Observation) => {
    if (at < to) heap.push({ at, seq: seq++, obs });
  };

  const firstMinute = Math.floor((from - lead) / MINUTE_MS);
  const lastMinute = Math.ceil(to / MINUTE_MS);
  for (let minute = firstMinute; minute < lastMinute; minute++) {
    const rng = rngFor(mix32(seed, minute));
    const minuteStart = minute * MINUTE_MS;
    const shape = dailyShape(minuteStart + MINUTE_MS / 2);
    for (let ci = 0; ci < world.clients.length; ci++) {
      const client = world.clients[ci]!;
      const route = routes[ci]!;
      for (const op of ['CASH_IN', 'CASH_OUT'] as const) {
        const opShare = op === 'CASH_IN' ? client.cashInShare : 1 - client.cashInShare;
        const lambda = (world.peakPerMinute * shape * client.weight * opShare) / totalClientWeight;
        const n = poisson(lambda, rng);
        for (let t = 0; t < n; t++) {
          // Fixed draws per transaction, whatever happens to it.
          const created = minuteStart + Math.floor(rng() * MINUTE_MS);
          const partner = route.ids[pickWeighted(route.cum, rng())]!;
          const institution = world.institutions[pickWeighted(instCum, rng())]!.ispb;
          const uKeep = rng();
          const uFail = rng();
          const uCode = rng();
          const uOutcome = rng();
          const delay = -Math.log(1 - rng());
          const lat = normal(rng);
          const uReturn = rng();
          const uExtra = rng();

          const atCreation = matchFaults(
            allFaults,
            created,
            op,
            partner,
            institution,
            client.clientId,
            uCode,
          );
          if (uKeep >= atCreation.volumeFactor) continue;
          emit(created, {
            at: iso(created),
            clientId: client.clientId,
            operation: op,
            partnerIspb: partner,
            ...(op === 'CASH_OUT' ? { institutionIspb: institution } : {}),
            event: 'CREATED',
          });

          if (op === 'CASH_IN') {
            // Charge registration at the partner, right after creation.
            const regAt = created + 1_000 + Math.floor(uExtra * 2_000);
            const reg = matchFaults(allFaults, regAt, op, partner, '', client.clientId, uCode);
            const regFail = reg.failRate > 0 && uFail < reg.failRate;
            if (regFail || uFail >= 1 - world.cashInFailure) {
              emit(regAt, {
                at: iso(regAt),
                clientId: client.clientId,
                operation: op,
                partnerIspb: partner,
                event: 'FAILED',
                failureCode: regFail ? (reg.failureCode ?? 'PROVIDER_UNAVAILABLE') : 'PROVIDER_UNAVAILABLE',
              });
              continue;
            }
            const payAt =
              created + Math.min(world.cashInExpiryMs - 1_000, Math.floor(delay * world.payDelayMeanMs));
            const pay = matchFaults(allFaults, payAt, op, partner, institution, client.clientId, uCode);
            if (uOutcome < world.payProbability * pay.payFactor) {
              const latency = Math.round(
                world.cashInLatency.medianMs * Math.exp(world.cashInLatency.sigma * lat) * pay.latencyFactor,
              );
              const settledAt = payAt + latency;
              emit(settledAt, {
                at: iso(settledAt),
                clientId: client.clientId,
                operation: op,
                partnerIspb: partner,
                institutionIspb: institution,
                event: 'SETTLED',
                latencyMs: latency,
              });
              if (uReturn < world.returnProbability) {
                const back = settledAt + 10 * MINUTE_MS + Math.floor(uExtra * 50 * MINUTE_MS);
                emit(back, {
                  at: iso(back),
                  clientId: client.clientId,
                  operation: op,
                  partnerIspb: partner,
                  institutionIspb: institution,
                  event: 'RETURNED',
                });
              }
            } else {
              const expiredAt =
                created + world.cashInExpiryMs + 5 * MINUTE_MS + Math.floor(uExtra * 2 * MINUTE_MS);
              emit(expiredAt, {
                at: iso(expiredAt),
                clientId: client.clientId,
                operation: op,
                partnerIspb: partner,
                event: 'EXPIRED',
              });
            }
          } else {
            const base = world.cashOutLatency.medianMs * Math.exp(world.cashOutLatency.sigma * lat);
            const outcomeAt0 = created + Math.round(base);
            const m = matchFaults(allFaults, outcomeAt0, op, partner, institution, client.clientId, uCode);
            const latency = Math.round(base * m.latencyFactor);
            const outcomeAt = created + latency;
            const common = {
              clientId: client.clientId,
              operation: op,
              partnerIspb: partner,
              institutionIspb: institution,
            };
            if (m.failRate > 0 && uFail < m.failRate) {
              emit(outcomeAt, {
                at: iso(outcomeAt),
                ...common,
                event: 'FAILED',
                failureCode: m.failureCode ?? 'PROCESSING_ERROR',
                latencyMs: latency,
              });
            } else if (uOutcome < backgroundFailure) {
              const code = failureCodes[pickWeighted(failureCum, uOutcome / backgroundFailure)]!;
              emit(outcomeAt, {
                at: iso(outcomeAt),
                ...common,
                event: 'FAILED',
                failureCode: code,
                latencyMs: latency,
              });
            } else {
              emit(outcomeAt, { at: iso(outcomeAt), ...common, event: 'SETTLED', latencyMs: latency });
              if (uReturn < world.returnProbability) {
                const back = outcomeAt + 10 * MINUTE_MS + Math.floor(uExtra * 50 * MINUTE_MS);
                emit(back, { at: iso(back), ...common, event: 'RETURNED' });
              }
            }
          }
        }
      }
    }
    // Everything before the next minute is final: later minutes only add later events.
    const horizon = minuteStart + MINUTE_MS;
    while (heap.size > 0 && heap.peek()!.at < horizon) {
      const p = heap.pop()!;
      if (p.at >= from) yield p.obs;
    }
  }
  while (heap.size > 0) {
    const p = heap.pop()!;
    if (p.at >= from && p.at < to) yield p.obs;
  }
}

export function generateArray(opts: GenerateOptions): Observation[] {
  return [...generateObservations(opts)];
}
