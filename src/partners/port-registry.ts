/**
 * Which adapter serves a partner: the one its declaration names (config.ts), the sandbox simulator
 * for an undeclared partner (the staging default). Every call is bounded by the partner time-out.
 */
import { BcbApiPixPartner } from './bcb-api-pix/adapter';
import { declaredPartners, resolveBcbPartner } from './config';
import type { SettlementPartnerPort } from './port';
import { SandboxPartner } from './sandbox';
import { withTimeout } from './timeout';

export function partnerPort(env: Env, ispb: string): SettlementPartnerPort {
  const declared = declaredPartners(env).find((p) => p.ispb === ispb);
  if (declared?.kind === 'bcb-api-pix')
    return withTimeout(new BcbApiPixPartner(resolveBcbPartner(env, declared)));
  return withTimeout(new SandboxPartner(ispb, env));
}
