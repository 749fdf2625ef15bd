// Synthetic PIX traffic for tests, demos and the benchmarks. Pure and seeded: the same options give the
// same observations, byte for byte. Lives outside src/: it is never bundled into the worker.
//
// Model: for every minute, each (client, operation) gets Poisson(lambda) new transactions, lambda =
// peakPerMinute * activity(time) * client weight * operation share [* a gamma over-dispersion factor
// * bursts]; arrival times are uniform within the minute. Each transaction picks a partner by the
// client's routing and a bank by a Zipf-like weight. Cash-In: CREATED, then SETTLED by the payer's bank
// after a payment delay (~85 %, drifting slowly for some clients) or EXPIRED 5-7 minutes after the
// charge's expiry. Cash-Out: CREATED, then SETTLED or FAILED with a catalog code after a delay.
//
// Every minute has its own RNG stream (seed x minute), and every transaction draws the same random
// numbers whatever the faults, so a fault never changes the traffic outside its own effect and a run
// started later (with a lead-in) reproduces exactly the events of a longer run. The texture (dispersion)
// has its own streams, so the reference world (no texture) is unchanged by it.
import type { FailureCode } from '../../../src/domain/failure-codes';
import type { Observation, Operation } from '../../../src/health/types';
import { type Fault, matchFaults } from './faults';
import {
  cumulate,
  gammaMeanOne,
  mix32,
  normal,
  normalQuantile,
  pickWeighted,
  poisson,
  rngFor,
} from './random';
import { activity, type ClientSpec, DAY_MS, HOUR_MS, MINUTE_MS, type PayDelayLaw, type World } from './world';

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

interface Pending {
  at: number;
  seq: number;
  obs: Observation;
}

function less(x: Pending, y: Pending): boolean {
  return x.at < y.at || (x.at === y.at && x.seq < y.seq);
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

/** Client-level rate multiplier: over-dispersion (per block, own stream) and bursts. */
function clientFactor(world: World, seed: number, ci: number, op: Operation, minuteStart: number): number {
  const t = world.texture;
  const client = world.clients[ci]!;
  let f = 1;
  if (t?.dispersion) {
    const block = Math.floor(minuteStart / (t.dispersionMs ?? 5 * MINUTE_MS));
    f *= gammaMeanOne(
      t.dispersion,
      rngFor(mix32(seed ^ 0x5bd1e995, block * 64 + ci * 2 + (op === 'CASH_IN' ? 0 : 1))),
    );
  }
  for (const b of client.bursts ?? []) {
    if (minuteStart >= b.at && minuteStart < b.at + b.durationMs && (!b.operation || b.operation === op)) {
      f *= b.factor;
    }
  }
  return f;
}

function payProbability(world: World, client: ClientSpec, at: number): number {
  const d = client.drift;
  const base = client.payProbability ?? world.payProbability;
  if (!d) return base;
  const x = base * (1 + d.amplitude * Math.sin((2 * Math.PI * at) / (d.periodDays * DAY_MS) + d.phase));
  return Math.max(0, Math.min(1, x));
}

/** Payment delay (ms) from one uniform draw: the tail share of the draw maps onto a Pareto tail. */
function payDelayMs(law: PayDelayLaw, u: number): number {
  if (law.kind === 'exponential') return -Math.log(1 - u) * law.meanMs;
  if (law.kind === 'heavy' && u < law.tailShare) {
    // Pareto from the body's 95th percentile upwards.
    const scale = law.medianMs * Math.exp(1.645 * law.sigma);
    return scale * (1 - u / law.tailShare) ** (-1 / law.tailAlpha);
  }
  const v = law.kind === 'heavy' ? (u - law.tailShare) / (1 - law.tailShare) : u;
  return law.medianMs * Math.exp(law.sigma * normalQuantile(v));
}

function localHour(ms: number): number {
  return ((((ms - 3 * HOUR_MS) % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
}

function hump(h: number, centre: number, width: number): number {
  let d = Math.abs(h - centre);
  if (d > 12) d = 24 - d;
  return Math.exp(-(d * d) / (2 * width * width));
}

/** A client's own daily shape on top of the platform's (night-heavy or lunch-heavy mixes). */
function clientShape(client: ClientSpec, ms: number, platformShape: number): number {
  const s = client.shape;
  if (!s) return platformShape;
  const h = localHour(ms);
  return platformShape + (s.night ?? 0) * hump(h, 2.5, 2) + (s.lunch ?? 0) * hump(h, 12.5, 1);
}

/** AR(1) over 5-minute windows as a truncated moving sum of hashed innovations: any window, no history. */
const AR_TERMS = 40;
function commonModeFactor(world: World, seed: number, ms: number): number {
  const cm = world.texture?.commonMode;
  if (!cm) return 1;
  const block = Math.floor(ms / (5 * MINUTE_MS));
  let x = 0;
  let w = 1;
  for (let k = 0; k < AR_TERMS; k++) {
    x += w * normal(rngFor(mix32(seed ^ 0x2c1b3c6d, block - k)));
    w *= cm.phi;
  }
  const day = Math.floor((ms - 3 * HOUR_MS) / DAY_MS);
  const y = normal(rngFor(mix32(seed ^ 0x297a2d39, day)));
  return Math.exp(Math.sqrt(1 - cm.phi * cm.phi) * cm.sigma * x + cm.daySigma * y);
}

/** Observations in time order, exactly the decisions §7 shape. */
export function* generateObservations(opts: GenerateOptions): Generator<Observation> {
  const { world, seed, from, to } = opts;
  const allFaults = opts.faults ?? [];
  const lead = opts.leadInMs ?? HOUR_MS;
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
    const shape = activity(world, minuteStart + MINUTE_MS / 2) * commonModeFactor(world, seed, minuteStart);
    for (let ci = 0; ci < world.clients.length; ci++) {
      const client = world.clients[ci]!;
      const route = routes[ci]!;
      for (const op of ['CASH_IN', 'CASH_OUT'] as const) {
        const opShare = op === 'CASH_IN' ? client.cashInShare : 1 - client.cashInShare;
        const cShape = client.shape ? clientShape(client, minuteStart + MINUTE_MS / 2, shape) : shape;
        const lambda =
          ((world.peakPerMinute * cShape * client.weight * opShare) / totalClientWeight) *
          (world.texture || client.bursts ? clientFactor(world, seed, ci, op, minuteStart) : 1);
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
          const uDelay = rng();
          const lat = normal(rng);
          const uReturn = rng();
          const uExtra = rng();
          const cid = client.clientId;

          const atCreation = matchFaults(allFaults, created, op, partner, institution, cid, uCode);
          if (uKeep >= atCreation.volumeFactor) continue;
          emit(created, {
            at: iso(created),
            clientId: cid,
            operation: op,
            partnerIspb: partner,
            ...(op === 'CASH_OUT' ? { institutionIspb: institution } : {}),
            event: 'CREATED',
          });

          if (op === 'CASH_IN') {
            // Charge registration at the partner, right after creation.
            const regAt = created + 1_000 + Math.floor(uExtra * 2_000);
            const reg = matchFaults(allFaults, regAt, op, partner, '', cid, uCode);
            const regFail = reg.failRate > 0 && uFail < reg.failRate;
            if (regFail || uFail >= 1 - world.cashInFailure) {
              emit(regAt, {
                at: iso(regAt),
                clientId: cid,
                operation: op,
                partnerIspb: partner,
                event: 'FAILED',
                failureCode: regFail ? (reg.failureCode ?? 'PROVIDER_UNAVAILABLE') : 'PROVIDER_UNAVAILABLE',
              });
              continue;
            }
            const expiryMs = client.cashInExpiryMs ?? world.cashInExpiryMs;
            const delayMs = world.payDelay
              ? payDelayMs(world.payDelay, uDelay)
              : -Math.log(1 - uDelay) * world.payDelayMeanMs;
            const payAt = created + Math.min(expiryMs - 1_000, Math.floor(delayMs));
            const pay = matchFaults(allFaults, payAt, op, partner, institution, cid, uCode);
            if (uOutcome < payProbability(world, client, payAt) * pay.payFactor) {
              const bankLatency = Math.round(
                world.cashInLatency.medianMs * Math.exp(world.cashInLatency.sigma * lat) * pay.latencyFactor,
              );
              const settledAt = payAt + bankLatency;
              const latency = world.cashInLatencyFromCreation ? settledAt - created : bankLatency;
              const common = {
                clientId: cid,
                operation: op,
                partnerIspb: partner,
                institutionIspb: institution,
              };
              emit(settledAt, { at: iso(settledAt), ...common, event: 'SETTLED', latencyMs: latency });
              if (uReturn < world.returnProbability) {
                const back = settledAt + 10 * MINUTE_MS + Math.floor(uExtra * 50 * MINUTE_MS);
                emit(back, { at: iso(back), ...common, event: 'RETURNED' });
              }
            } else {
              const expiredAt = created + expiryMs + 5 * MINUTE_MS + Math.floor(uExtra * 2 * MINUTE_MS);
              emit(expiredAt, {
                at: iso(expiredAt),
                clientId: cid,
                operation: op,
                partnerIspb: partner,
                event: 'EXPIRED',
              });
            }
          } else {
            const base = world.cashOutLatency.medianMs * Math.exp(world.cashOutLatency.sigma * lat);
            const outcomeAt0 = created + Math.round(base);
            const m = matchFaults(allFaults, outcomeAt0, op, partner, institution, cid, uCode);
            const latency = Math.round(base * m.latencyFactor);
            const outcomeAt = created + latency;
            if (m.stallRate > 0 && uReturn < m.stallRate) continue;
            const common = {
              clientId: cid,
              operation: op,
              partnerIspb: partner,
              institutionIspb: institution,
            };
            if (m.failRate > 0 && uFail < m.failRate) {
              const failureCode = m.failureCode ?? 'PROCESSING_ERROR';
              emit(outcomeAt, {
                at: iso(outcomeAt),
                ...common,
                event: 'FAILED',
                failureCode,
                latencyMs: latency,
              });
            } else if (uOutcome < backgroundFailure) {
              const failureCode = failureCodes[pickWeighted(failureCum, uOutcome / backgroundFailure)]!;
              emit(outcomeAt, {
                at: iso(outcomeAt),
                ...common,
                event: 'FAILED',
                failureCode,
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
