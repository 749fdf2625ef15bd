/**
 * Which adapter serves a partner. Staging (and, until real bank adapters exist, every environment)
 * uses the sandbox simulator. Every call is bounded by the partner time-out (timeout.ts).
 */
import type { SettlementPartnerPort } from './port';
import { SandboxPartner } from './sandbox';
import { withTimeout } from './timeout';

export function partnerPort(env: Env, ispb: string): SettlementPartnerPort {
  return withTimeout(new SandboxPartner(ispb, env));
}
