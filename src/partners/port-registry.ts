/**
 * Which adapter serves a partner: the one its declaration names (config.ts), or for an undeclared
 * partner the sandbox simulator, in staging only and only when the staging entry registered it
 * (src/staging/index.ts): the production bundle has no simulator to fall back on. Every call is
 * bounded by the partner time-out.
 * A BCB adapter is kept per isolate (per environment and ISPB), so its OAuth2 token is reused
 * until it is due for refresh rather than fetched for every call.
 */

import { isStaging } from '../config';
import { BcbApiPixPartner } from './bcb-api-pix/adapter';
import { declaredPartners, PartnerConfigError, resolveBcbPartner } from './config';
import type { SettlementPartnerPort } from './port';
import { withTimeout } from './timeout';

/** Builds the simulator of an undeclared partner; set by the staging entry, never in production. */
export type PartnerSimulator = (ispb: string, env: Env) => SettlementPartnerPort;
let simulator: PartnerSimulator | undefined;

/** The staging entry's one call at load: undeclared partners are simulated from now on (staging only). */
export function registerPartnerSimulator(simulate: PartnerSimulator): void {
  simulator = simulate;
}

const adapters = new WeakMap<object, Map<string, { declaration: unknown; adapter: BcbApiPixPartner }>>();

/** The API Pix adapter of a declared `bcb-api-pix` partner, or undefined for any other ISPB. */
export function bcbPartner(env: Env, ispb: string): BcbApiPixPartner | undefined {
  const declared = declaredPartners(env).find((p) => p.ispb === ispb);
  if (declared?.kind !== 'bcb-api-pix') return undefined;
  const byIspb = adapters.get(env) ?? new Map();
  adapters.set(env, byIspb);
  const cached = byIspb.get(ispb);
  if (cached?.declaration === declared) return cached.adapter;
  const adapter = new BcbApiPixPartner(resolveBcbPartner(env, declared));
  byIspb.set(ispb, { declaration: declared, adapter });
  return adapter;
}

/**
 * The bounded ports built so far, per environment and ISPB, with what each was built from: every
 * Cash-In, refund and status poll asks for one, and building it is a dozen closures.
 */
const ports = new WeakMap<object, Map<string, { source: unknown; port: SettlementPartnerPort }>>();

function boundedPort(env: Env, ispb: string, source: unknown, build: () => SettlementPartnerPort) {
  const byIspb = ports.get(env) ?? new Map();
  ports.set(env, byIspb);
  const cached = byIspb.get(ispb);
  if (cached?.source === source) return cached.port;
  const port = withTimeout(build());
  byIspb.set(ispb, { source, port });
  return port;
}

/** The partner's adapter; outside staging an undeclared partner refuses rather than being simulated. */
export function partnerPort(env: Env, ispb: string): SettlementPartnerPort {
  const bcb = bcbPartner(env, ispb);
  if (bcb) return boundedPort(env, ispb, bcb, () => bcb);
  if (!isStaging(env) || !simulator)
    throw new PartnerConfigError(`partner ${ispb} is not declared in PARTNERS`);
  const simulate = simulator;
  return boundedPort(env, ispb, simulate, () => simulate(ispb, env));
}
