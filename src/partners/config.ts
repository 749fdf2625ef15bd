/**
 * Partners as configuration. The operator declares real partners in the `PARTNERS` var (JSON array,
 * wrangler.toml `[env.production.vars]`), their OAuth2 credentials as secrets
 * `PARTNER_<ISPB>_CLIENT_ID` / `PARTNER_<ISPB>_CLIENT_SECRET` (`wrangler secret put`), and the mTLS
 * client certificate as an `mtls_certificates` binding named by `certificate`. A partner that is not
 * declared keeps the sandbox (the staging default). Configuration fails closed: a declared partner
 * with a missing field, secret or certificate binding refuses with the exact name that is missing.
 */
import { isStaging } from '../config';
import { ISPB_RULE, isIspb } from '../domain/ispb';
import type { Fetcher as HttpFetcher } from './bcb-api-pix/client';
import { institutionName, partnerByIspb, SETTLEMENT_PARTNERS, type SettlementPartner } from './catalog';

export type AdapterKind = 'sandbox' | 'bcb-api-pix';

export interface DeclaredPartner {
  ispb: string;
  name: string;
  branch: string;
  kind: AdapterKind;
  baseUrl?: string;
  tokenUrl?: string;
  pixKey?: string;
  certificate?: string;
  /** Subject DN of the client certificate the partner's callbacks present over mTLS. */
  webhookCertSubject?: string;
  /** Issuer DN of that certificate, checked too when set. */
  webhookCertIssuer?: string;
  /** Where Cash-Outs go: API Pix has no payment operation, so a bank's own payout API. */
  payout?: DeclaredPayout;
  /**
   * The PSP reports who paid each received Pix as Efí does (`gnExtras.pagador`, enabled per key by
   * `PUT /v2/gn/config`); absent or false: plain API Pix, which carries no payer document.
   */
  reportsPayer?: boolean;
  /**
   * The PSP offers Pix Automático (bacen/pix-api 2.9.0 `/rec`, `/cobr`): the account of ours there
   * that recurring charges credit (`CobRSolicitada.recebedor`). Absent: recurrences are refused
   * with 422 before anything is sent.
   */
  pixAutomatico?: { account: string; accountType: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO'; branch?: string };
}

/** Efí's Pix Send (src/partners/efi-pix-send), with the partner's OAuth2 credentials and certificate. */
export interface DeclaredPayout {
  kind: 'efi-pix-send';
  /** Host of the payout API (`https://pix.api.efipay.com.br`); paths carry their own version. */
  baseUrl: string;
  /** Our Pix key at the partner that pays. */
  payerKey: string;
}

export interface ResolvedBcbPartner extends DeclaredPartner {
  kind: 'bcb-api-pix';
  baseUrl: string;
  tokenUrl: string;
  pixKey: string;
  clientId: string;
  clientSecret: string;
  fetcher: HttpFetcher;
}

export class PartnerConfigError extends Error {
  constructor(message: string) {
    super(`partner configuration: ${message}`);
    this.name = 'PartnerConfigError';
  }
}

let parsed: { raw: unknown; list: DeclaredPartner[] } | undefined;

/** The declared partners, validated (once per value of the var); none declared: the sandbox catalog. */
export function declaredPartners(env: unknown): DeclaredPartner[] {
  const raw = (env as Record<string, unknown>).PARTNERS;
  if (parsed && parsed.raw === raw) return parsed.list;
  const list = parsePartners(raw);
  const simulated = list.findIndex((p) => p.kind === 'sandbox');
  if (simulated >= 0 && !isStaging(env as { ENVIRONMENT?: unknown }))
    throw new PartnerConfigError(
      `PARTNERS[${simulated}] is a sandbox partner: only staging simulates a bank`,
    );
  parsed = { raw, list };
  return list;
}

/**
 * A settlement partner by ISPB: a declared one, else (staging only) the sandbox catalog's. Production
 * never settles with a simulator: an undeclared ISPB is no partner there.
 */
export function settlementPartner(env: unknown, ispb: string): SettlementPartner | undefined {
  const declared = declaredPartners(env).find((p) => p.ispb === ispb);
  if (declared) return { ispb, name: declared.name, branch: declared.branch };
  return isStaging(env as { ENVIRONMENT?: unknown }) ? partnerByIspb(ispb) : undefined;
}

/**
 * Does the partner at `ispb` only exist in simulation (a declared sandbox partner, or in staging the
 * sandbox catalog's)? Sandbox actions (pay, deposit, returns, the open-finance page) may touch only
 * such partners' resources: money a real bank holds moves only on that bank's word.
 */
export function isSimulatedPartner(env: unknown, ispb: string): boolean {
  const declared = declaredPartners(env).find((p) => p.ispb === ispb);
  if (declared) return declared.kind === 'sandbox';
  return isStaging(env as { ENVIRONMENT?: unknown }) && partnerByIspb(ispb) !== undefined;
}

/**
 * A settlement partner's name: as the operator declared it (PARTNERS), else (staging) the sandbox
 * catalog's; null for an ISPB that is no partner here. Every view naming a partner asks here.
 */
export function partnerName(env: unknown, ispb: string): string | null {
  return settlementPartner(env, ispb)?.name ?? null;
}

/** Any institution's display name (payer and payee banks too): a declared partner's as declared. */
export function bankName(env: unknown, ispb: string): string {
  return declaredPartners(env).find((p) => p.ispb === ispb)?.name ?? institutionName(ispb);
}

/**
 * Does the partner report who paid (a declaration's `reportsPayer`; the simulated network always
 * does)? Asked before a charge is registered, so it never builds an adapter.
 */
export function reportsPayer(env: unknown, ispb: string): boolean {
  const declared = declaredPartners(env).find((p) => p.ispb === ispb);
  if (declared) return declared.kind === 'sandbox' || declared.reportsPayer === true;
  return isSimulatedPartner(env, ispb);
}

/** Does the partner offer Pix Automático (a declaration's `pixAutomatico`; the simulated network always does)? */
export function offersPixAutomatico(env: unknown, ispb: string): boolean {
  const declared = declaredPartners(env).find((p) => p.ispb === ispb);
  if (declared) return declared.kind === 'sandbox' || declared.pixAutomatico !== undefined;
  return isSimulatedPartner(env, ispb);
}

/** The partners a client gets when its onboarding names none: staging's sandbox catalog, else every declared one. */
export function defaultPartners(env: unknown): string[] {
  return isStaging(env as { ENVIRONMENT?: unknown })
    ? SETTLEMENT_PARTNERS.map((p) => p.ispb)
    : declaredPartners(env).map((p) => p.ispb);
}

function parsePartners(raw: unknown): DeclaredPartner[] {
  if (raw === undefined || raw === '') return [];
  let list: unknown;
  try {
    list = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    throw new PartnerConfigError('PARTNERS is not valid JSON');
  }
  if (!Array.isArray(list)) throw new PartnerConfigError('PARTNERS must be an array');
  return list.map((p: Record<string, unknown>, i) => {
    const at = `PARTNERS[${i}]`;
    if (!isIspb(p.ispb)) throw new PartnerConfigError(`${at}.ispb must be ${ISPB_RULE}`);
    if (typeof p.name !== 'string' || p.name === '') throw new PartnerConfigError(`${at}.name is required`);
    if (p.kind !== 'sandbox' && p.kind !== 'bcb-api-pix')
      throw new PartnerConfigError(`${at}.kind must be "sandbox" or "bcb-api-pix"`);
    if (p.kind === 'bcb-api-pix')
      for (const field of ['baseUrl', 'tokenUrl', 'pixKey', 'certificate'] as const)
        if ((typeof p[field] !== 'string' || p[field] === '') && !(field === 'certificate' && localMock(p)))
          throw new PartnerConfigError(`${at}.${field} is required`);
    if (p.reportsPayer !== undefined && typeof p.reportsPayer !== 'boolean')
      throw new PartnerConfigError(`${at}.reportsPayer must be true or false`);
    if (p.pixAutomatico !== undefined) checkPixAutomatico(p, `${at}.pixAutomatico`);
    if (p.payout !== undefined) {
      if (p.kind !== 'bcb-api-pix') throw new PartnerConfigError(`${at}.payout needs kind "bcb-api-pix"`);
      checkPayout(p.payout, `${at}.payout`);
    }
    return { ...p, branch: typeof p.branch === 'string' ? p.branch : '0001' } as DeclaredPartner;
  });
}

/** Every URL of the declaration on this machine: a local mock, which has no certificate to ask for. */
function localMock(p: Record<string, unknown>): boolean {
  return partnerUrls(p as Partial<DeclaredPartner>).every(isLoopback);
}

/** Every URL a declaration makes the gateway call (API Pix, its token endpoint, the payout API). */
function partnerUrls(p: Partial<DeclaredPartner>): unknown[] {
  return [p.baseUrl, p.tokenUrl, ...(p.payout ? [p.payout.baseUrl] : [])];
}

/** A PSP simulator on this machine (`npm start` against a local mock): no certificate to present. */
const isLoopback = (u: unknown) =>
  typeof u === 'string' && /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(`${u}/`);

const ACCOUNT_TYPES = ['CORRENTE', 'POUPANCA', 'PAGAMENTO'];

function checkPixAutomatico(p: Record<string, unknown>, at: string): void {
  if (p.kind !== 'bcb-api-pix') throw new PartnerConfigError(`${at} needs kind "bcb-api-pix"`);
  const a = p.pixAutomatico as Record<string, unknown> | null;
  if (typeof a?.account !== 'string' || !/^[0-9A-Za-z-]{1,20}$/.test(a.account))
    throw new PartnerConfigError(`${at}.account must be 1 to 20 letters, digits or hyphens`);
  if (!ACCOUNT_TYPES.includes(a.accountType as string))
    throw new PartnerConfigError(`${at}.accountType must be one of ${ACCOUNT_TYPES.join(', ')}`);
  if (a.branch !== undefined && (typeof a.branch !== 'string' || !/^\d{1,4}$/.test(a.branch)))
    throw new PartnerConfigError(`${at}.branch must be 1 to 4 digits`);
}

function checkPayout(payout: unknown, at: string): void {
  const p = payout as Record<string, unknown> | null;
  if (p?.kind !== 'efi-pix-send') throw new PartnerConfigError(`${at}.kind must be "efi-pix-send"`);
  for (const field of ['baseUrl', 'payerKey'] as const)
    if (typeof p[field] !== 'string' || p[field] === '')
      throw new PartnerConfigError(`${at}.${field} is required`);
}

/**
 * How a partner's Pix callbacks authenticate (src/partners/inbound-auth.ts): the client certificate
 * named by subject (and issuer) DN, and/or the secret `PARTNER_<ISPB>_WEBHOOK_SECRET` as a path
 * segment. Neither configured means every callback is refused.
 */
export interface WebhookAuth {
  certSubject?: string;
  certIssuer?: string;
  secret?: string;
}

export function webhookAuthOf(env: unknown, partner: DeclaredPartner): WebhookAuth {
  const secret = (env as Record<string, unknown>)[`PARTNER_${partner.ispb}_WEBHOOK_SECRET`];
  return {
    ...(partner.webhookCertSubject && { certSubject: partner.webhookCertSubject }),
    ...(partner.webhookCertIssuer && { certIssuer: partner.webhookCertIssuer }),
    ...(typeof secret === 'string' && secret !== '' && { secret }),
  };
}

/** Everything the BCB adapter needs for one declared partner, or a precise refusal. */
export function resolveBcbPartner(env: unknown, partner: DeclaredPartner): ResolvedBcbPartner {
  const bag = env as Record<string, unknown>;
  const secret = (name: string) => {
    const value = bag[name];
    if (typeof value !== 'string' || value === '')
      throw new PartnerConfigError(`partner ${partner.ispb} needs the secret ${name}`);
    return value;
  };
  const clientId = secret(`PARTNER_${partner.ispb}_CLIENT_ID`);
  const clientSecret = secret(`PARTNER_${partner.ispb}_CLIENT_SECRET`);
  return {
    ...(partner as ResolvedBcbPartner),
    clientId,
    clientSecret,
    fetcher: certificateFetcher(bag, partner),
  };
}

/**
 * The fetcher that presents the partner's client certificate. Only a staging deployment whose
 * partner URLs all point at this machine may go without one (workerd has no local mTLS binding);
 * anywhere else a missing binding refuses, and production refuses loopback URLs outright.
 */
function certificateFetcher(bag: Record<string, unknown>, partner: DeclaredPartner): HttpFetcher {
  const urls = partnerUrls(partner);
  const local = urls.every(isLoopback);
  if (urls.some(isLoopback) && bag.ENVIRONMENT === 'production')
    throw new PartnerConfigError(`partner ${partner.ispb} points at this machine in production`);
  if (local && partner.certificate === undefined) return (request) => fetch(request);
  const binding = bag[partner.certificate as string] as { fetch?: HttpFetcher } | undefined;
  const certified = binding?.fetch;
  if (typeof certified !== 'function')
    throw new PartnerConfigError(
      `partner ${partner.ispb} needs the mtls_certificates binding ${partner.certificate}`,
    );
  return (request) => certified.call(binding, request);
}
