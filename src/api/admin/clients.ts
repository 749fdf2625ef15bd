/**
 * What the operations on one client share: finding it by the `{clientId}` path parameter, and its
 * view (no secrets) as the operator API answers it.
 */
import type { AccountRow, ClientRow } from '../../db/clients';
import { findClient } from '../../db/clients';
import type { ClientLimits } from '../../domain/limits';
import { DEFAULT_MERCHANT_CITY } from '../../domain/merchant';
import { amountFromCents } from '../../domain/money';
import { ProblemError } from '../../http/errors';
import type { ApiRequest } from '../../http/request-context';
import { settlementPartner } from '../../partners/config';

export function accountView(env: Env, a: AccountRow) {
  return {
    number: a.number,
    branch: a.branch,
    type: a.type,
    bank: { ispb: a.ispb, name: settlementPartner(env, a.ispb)?.name ?? null },
  };
}

function limitsView(limits: ClientLimits) {
  const out: Record<string, number> = {};
  for (const [k, cents] of Object.entries(limits))
    if (typeof cents === 'number') out[k] = amountFromCents(cents);
  return out;
}

export function clientView(env: Env, c: ClientRow, accounts: AccountRow[]) {
  return {
    clientId: c.id,
    name: c.name,
    merchantName: c.merchantName ?? c.name,
    merchantCity: c.merchantCity ?? DEFAULT_MERCHANT_CITY,
    statementStartDate: c.statementStartDate,
    partners: c.partners.map((ispb) => ({ ispb, name: settlementPartner(env, ispb)?.name ?? null })),
    accounts: accounts.map((a) => accountView(env, a)),
    limits: limitsView(c.limits),
    ...(c.approvalThresholdCents !== null && {
      approvalThreshold: amountFromCents(c.approvalThresholdCents),
    }),
    blockedPayerDocuments: c.blockedPayerDocuments,
    payerPolicy: c.payerPolicy,
    ...(c.healthWebhookUrl !== null && { healthWebhookUrl: c.healthWebhookUrl }),
    ...(c.rateLimitPerSecond !== null && { rateLimitPerSecond: c.rateLimitPerSecond }),
    applicationTokenActive: c.applicationTokenActive,
    cryptoTokenActive: c.cryptoTokenSealed !== null,
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

/** The merchant text the client's object renders into BR Codes (absent = defaults). */
export function merchantProfile(c: ClientRow): { merchantName?: string; merchantCity?: string } {
  return {
    ...(c.merchantName !== null && { merchantName: c.merchantName }),
    ...(c.merchantCity !== null && { merchantCity: c.merchantCity }),
  };
}

export async function requireClient(request: ApiRequest, env: Env): Promise<ClientRow> {
  const id = String(request.params.clientId ?? '');
  const client = /^[0-9a-f-]{36}$/.test(id) ? await findClient(env, id) : undefined;
  if (!client) throw new ProblemError('CLIENT_NOT_FOUND', 'No client with this id');
  return client;
}
