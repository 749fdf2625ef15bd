// Faults of the PIX traffic simulator: what a fault changes, which transactions it matches, and the
// ready-made faults (partner, bank, cohort, merchant, platform, ramps, partial outages that flicker).
import type { Operation } from '../../../src/health/types';
import { hashUniform } from './random';
import { MINUTE_MS } from './world';

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
  /** Cash-Out: probability that a matching transfer never gets an outcome (a partner that stopped answering). */
  stallRate?: number;
}

export interface Fault extends FaultEffect {
  from: number;
  to: number;
  operation?: Operation;
  partnerIspb?: string;
  /** Payee bank (Cash-Out) or payer bank (Cash-In payments). */
  institutionIspbs?: string[];
  clientId?: string;
  /** Later changes of the effect (a degradation that deepens, a ramp, a flickering outage). */
  steps?: (FaultEffect & { at: number })[];
}

export interface Matched {
  failRate: number;
  failureCode: string | null;
  payFactor: number;
  volumeFactor: number;
  latencyFactor: number;
  stallRate: number;
}

export const NO_EFFECT: Matched = {
  failRate: 0,
  failureCode: null,
  payFactor: 1,
  volumeFactor: 1,
  latencyFactor: 1,
  stallRate: 0,
};

function effectAt(f: Fault, at: number): FaultEffect {
  if (!f.steps || f.steps.length === 0) return f;
  let effect: FaultEffect = f;
  for (const s of f.steps) {
    if (s.at > at) break;
    effect = { ...effect, ...s };
  }
  return effect;
}

export function matchFaults(
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
    m.stallRate = Math.max(m.stallRate, e.stallRate ?? 0);
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
  /** A partner that stops answering: transactions are created but nothing settles or fails through it. */
  partnerSilence(partnerIspb: string, operation: Operation, from: number, to: number): Fault {
    return operation === 'CASH_IN'
      ? { from, to, operation, partnerIspb, payFactor: 0 }
      : { from, to, operation, partnerIspb, stallRate: 1 };
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
  /**
   * A failure rate climbing linearly from 0 to `peak` over `rampMs`, then held until `to`. Steps every
   * minute. `ramp(f)` takes any failing fault (partner, bank...) and reshapes its failRate.
   */
  ramp(fault: Fault, rampMs: number, peak: number): Fault {
    const steps: Fault['steps'] = [];
    for (let t = fault.from; t < fault.to; t += MINUTE_MS) {
      steps.push({ at: t, failRate: peak * Math.min(1, (t - fault.from + MINUTE_MS / 2) / rampMs) });
    }
    return { ...fault, failRate: 0, steps };
  },
  /** When a ramp's failure rate first reaches `level` (ms). */
  rampCrossing(fault: Fault, rampMs: number, peak: number, level: number): number {
    return fault.from + Math.max(0, (level / peak) * rampMs - MINUTE_MS / 2);
  },
  /** A partial outage whose failure rate jumps between `low` and `high` every 2-6 minutes. */
  flicker(fault: Fault, low: number, high: number, seed: number): Fault {
    const steps: Fault['steps'] = [];
    let t = fault.from;
    let i = 0;
    while (t < fault.to) {
      steps.push({ at: t, failRate: low + (high - low) * hashUniform(seed, i, 1) });
      t += (2 + Math.floor(hashUniform(seed, i, 2) * 5)) * MINUTE_MS;
      i++;
    }
    return { ...fault, steps };
  },
  /** Restrict any fault to the single 5-minute window starting at `windowStart`. */
  blip(fault: Omit<Fault, 'from' | 'to'>, windowStart: number): Fault {
    const from = Math.floor(windowStart / WINDOW) * WINDOW;
    return { ...fault, from, to: from + WINDOW };
  },
};
