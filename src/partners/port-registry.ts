/**
 * Which adapter serves a partner. Staging (and, until real bank adapters exist, every environment)
 * uses the sandbox simulator.
 */
import type { SettlementPartnerPort } from './port';
import { SandboxPartner } from './sandbox';

export function partnerPort(env: Env, ispb: string): SettlementPartnerPort {
  return new SandboxPartner(ispb, env);
}
