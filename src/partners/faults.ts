/**
 * Operator-injected misbehaviour of sandbox partners (docs/contract.md, Operator API), stored in D1 so every
 * isolate and Durable Object sees the same faults; read through a short per-isolate cache.
 */
import type { AuditRow } from '../db/audit';
import { deleteFaultsOf, faultsActiveAt, insertFault } from '../db/partner-faults';

export interface PartnerFault {
  ispb: string;
  operation: 'CASH_IN' | 'CASH_OUT';
  /** Parts per million of calls that fail. */
  failureRatePpm: number;
  failureCode: string | null;
  latencyMs: number;
  endsAt: number;
}

const CACHE_MS = 1_000;
let cached: { at: number; faults: PartnerFault[] } | undefined;

export async function activeFaults(env: Env, now = Date.now()): Promise<PartnerFault[]> {
  if (cached && now - cached.at < CACHE_MS) return cached.faults.filter((f) => f.endsAt > now);
  const rows = await faultsActiveAt(env, now);
  const faults = rows.map((r) => ({
    ispb: r.ispb,
    operation: r.operation,
    failureRatePpm: r.failureRate,
    failureCode: r.failureCode,
    latencyMs: r.latencyMs,
    endsAt: r.endsAt,
  }));
  cached = { at: now, faults };
  return faults;
}

export function forgetFaults(): void {
  cached = undefined;
}

/** The fault and the operator's audit record commit together. */
export async function injectFault(
  env: Env,
  fault: PartnerFault,
  now: number,
  audit: AuditRow,
): Promise<void> {
  await insertFault(
    env,
    {
      ispb: fault.ispb,
      operation: fault.operation,
      failureRate: fault.failureRatePpm,
      failureCode: fault.failureCode,
      latencyMs: fault.latencyMs,
      startsAt: now,
      endsAt: fault.endsAt,
    },
    audit,
  );
  forgetFaults();
}

/** Ends every fault of a partner now (operators clearing an exercise). */
export async function clearFaults(env: Env, ispb: string, audit: AuditRow): Promise<void> {
  await deleteFaultsOf(env, ispb, audit);
  forgetFaults();
}
