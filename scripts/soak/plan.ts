/**
 * The soak's traffic plan, pure: the scenario catalog with its weights, a seeded random source,
 * the partner sets of the clients, amounts that never trip the duplicate-transfer rule, the fault
 * schedule, and the outcome each scenario must end in. No I/O here; scripts/soak/traffic.ts runs it.
 */
import { present } from '../../src/domain/present';

export type Kind = 'CASH_IN' | 'CASH_OUT';

export const SCENARIOS = {
  'cashin.paid': 18,
  'cashin.refunded': 6,
  'cashin.returned': 4,
  'cashin.expired': 6,
  'cashin.cancelled': 4,
  'cashin.retry': 3,
  'cashin.race': 3,
  'cashout.completed': 18,
  'cashout.failed': 6,
  'cashout.returned': 5,
  'cashout.approved': 3,
  'cashout.rejected': 2,
  'cashout.insufficient': 1,
  'cashout.retry': 3,
  'rebalance.top-up': 5,
  'rebalance.sweep': 5,
  deposit: 4,
  'read.statement': 7,
} as const;

export type Scenario = keyof typeof SCENARIOS;

/** An acceptable final state: the status, and where it matters the failure code or reason. */
export interface Outcome {
  status: string;
  failureCode?: string;
  reason?: string;
  /** The partner it must have been routed to (a fault's outcome only happens there). */
  ispb?: string;
}

/** mulberry32: a small seeded generator, so a run's mix can be replayed with --seed. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  scenario(): Scenario {
    const entries = Object.entries(SCENARIOS) as [Scenario, number][];
    let roll = this.next() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [name, weight] of entries) {
      roll -= weight;
      if (roll < 0) return name;
    }
    return present(entries[0], 'a weighted entry')[0];
  }
}

/** Which sandbox settlement partners (src/partners/catalog.ts) each client is onboarded with. */
export const PARTNER_SETS: string[][] = [
  ['31880826'],
  ['42273459', '56431109'],
  ['56431109', '31880826'],
  ['31880826', '42273459', '56431109'],
];
export const partnersOf = (clientIndex: number, sets = PARTNER_SETS): string[] =>
  present(sets[clientIndex % sets.length], 'a partner set');

/** Cash-Outs at or above this go PENDING (PATCH approvalThreshold); ordinary ones stay below. */
export const APPROVAL_THRESHOLD_CENTS = 500_000;
export const INITIAL_DEPOSIT_CENTS = 100_000_000;

/** Partner-side failure codes the magic payee keys produce (never the injected fault's code). */
export const MAGIC_CODES = [
  'PIX_KEY_NOT_FOUND',
  'PAYEE_ACCOUNT_INVALID',
  'PAYEE_DOCUMENT_MISMATCH',
  'FRAUD_SUSPECTED',
  'PAYEE_BANK_REJECTED',
] as const;
export const magicPixKey = (code: string) => `${code.toLowerCase()}@sandbox.pix`;

/** The injected partner faults: Cash-Outs at one partner fail at a rate, Cash-Ins at another slow. */
export interface FaultPlan {
  ispb: string;
  operation: Kind;
  failureRate: number;
  failureCode?: string;
  latencyMs: number;
}
export const FAULTS: FaultPlan[] = [
  {
    ispb: '56431109',
    operation: 'CASH_OUT',
    failureRate: 0.3,
    failureCode: 'PAYEE_BANK_UNAVAILABLE',
    latencyMs: 150,
  },
  { ispb: '42273459', operation: 'CASH_IN', failureRate: 0, latencyMs: 120 },
];

/** Faults are on from 25 % to 60 % of the traffic phase. */
export function faultWindow(durationMs: number): { startMs: number; endMs: number } {
  return { startMs: Math.round(durationMs * 0.25), endMs: Math.round(durationMs * 0.6) };
}

/**
 * The longest a Cash-Out may stay PROCESSING (docs/contract.md, Cash-Out lifecycle): the gateway's partner
 * time-out (5 s, src/partners/timeout.ts) for the payment, the 5 s before a retryable one is sent again, a
 * second time-out, then the sandbox's slowest settlement (2 s, src/partners/sandbox.ts) plus the injected
 * latency, and two status polls (500 ms apart) to notice it.
 */
export const MAX_PROCESSING_MS = 5_000 + 5_000 + 5_000 + 2_000 + 150 + 2 * 500;

/** A Cash-Out sent this close to a fault window may have met the fault (faults are cached ~1 s). */
export const FAULT_SLACK_MS = { before: 60_000, after: 10_000 };

/**
 * Cash-Out amounts in centavos that no live Cash-Out of the same client used in the last minute:
 * the gateway cancels a same-payee same-amount twin within 10 s as DUPLICATED_TRANSFER, and the
 * magic keys are shared payees.
 */
export class AmountPicker {
  private readonly lastUsed = new Map<number, number>();

  constructor(private readonly random: Random) {}

  pick(min: number, max: number, now: number): number {
    let amount = this.random.int(min, max);
    for (let i = 0; i < 50 && now - (this.lastUsed.get(amount) ?? -Infinity) < 60_000; i++) {
      amount = this.random.int(min, max);
    }
    this.lastUsed.set(amount, now);
    return amount;
  }
}

/** Final statuses: nothing moves a transaction out of them (a Cash-In stays PAID unless refunded). */
export function isFinal(kind: Kind, status: string, expectsRefund: boolean): boolean {
  if (kind === 'CASH_OUT') return ['COMPLETED', 'CANCELLED', 'REFUNDED'].includes(status);
  if (status === 'PAID') return !expectsRefund;
  return ['EXPIRED', 'CANCELLED', 'REFUNDED'].includes(status);
}
