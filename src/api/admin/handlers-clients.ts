/** Operator API for clients and their credentials (docs/contract.md, Operator API). */

import { ledgerOf } from '../../../durable-objects/stubs';
import {
  type AccountRow,
  type ClientRow,
  findClient,
  insertClient,
  listClientAccounts,
  updateClient,
} from '../../db/clients';
import { forgetCredentials } from '../../db/credentials';
import { newAccountNumber } from '../../domain/accounts';
import { newLocationKey } from '../../domain/ids';
import type { ClientLimits } from '../../domain/limits';
import { DEFAULT_MERCHANT_CITY } from '../../domain/merchant';
import { amountFromCents, centsFromAmount } from '../../domain/money';
import { brtDate } from '../../domain/time';
import { requireOperator } from '../../http/admin-auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import { parseWith } from '../../http/validation';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { defaultPartners, settlementPartner } from '../../partners/config';
import { encryptSecret, newCryptoToken, newWebhookSecret, sha256Hex } from '../../security/secrets';
import { createClientSchema, PatchClientSchema } from './schemas';

function accountView(env: Env, a: AccountRow) {
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

function clientView(env: Env, c: ClientRow, accounts: AccountRow[]) {
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
    ...(c.healthWebhookUrl !== null && { healthWebhookUrl: c.healthWebhookUrl }),
    ...(c.rateLimitPerSecond !== null && { rateLimitPerSecond: c.rateLimitPerSecond }),
    applicationTokenActive: c.applicationTokenActive,
    cryptoTokenActive: c.cryptoTokenSealed !== null,
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

/** The merchant text the client's object renders into BR Codes (absent = defaults). */
function merchantProfile(c: ClientRow): { merchantName?: string; merchantCity?: string } {
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

export async function handleCreateClient(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireOperator(request, env);
  const isPartner = (ispb: string) => settlementPartner(env, ispb) !== undefined;
  const body = parseWith(createClientSchema(isPartner), await readJsonObject(request));
  const now = Date.now();
  const clientId = crypto.randomUUID();
  const clientSecret = crypto.randomUUID();
  const applicationToken = crypto.randomUUID();
  const cryptoToken = newCryptoToken();
  const webhookSecret = newWebhookSecret();
  const partners = body.partners ?? defaultPartners(env);
  if (partners.length === 0)
    throw new ProblemError(
      'SERVICE_UNAVAILABLE',
      'No settlement partner is declared in this deployment: the operator sets PARTNERS first',
    );
  const accounts: AccountRow[] = partners.flatMap((ispb) =>
    (['TRANSACTIONAL', 'PROPRIETARY'] as const).map((type) => ({
      number: newAccountNumber(),
      clientId,
      ispb,
      branch: settlementPartner(env, ispb)?.branch ?? '0001',
      type,
    })),
  );
  const client: ClientRow = {
    id: clientId,
    name: body.name,
    merchantName: body.merchantName ?? null,
    merchantCity: body.merchantCity ?? null,
    clientSecretHash: await sha256Hex(clientSecret),
    applicationTokenHash: await sha256Hex(applicationToken),
    applicationTokenActive: true,
    cryptoTokenSealed: await encryptSecret(cryptoToken, env.DATA_ENCRYPTION_KEY),
    webhookSecretSealed: await encryptSecret(webhookSecret, env.DATA_ENCRYPTION_KEY),
    statementStartDate: body.statementStartDate ?? brtDate(now),
    partners,
    limits: {},
    approvalThresholdCents: null,
    blockedPayerDocuments: [],
    healthWebhookUrl: null,
    rateLimitPerSecond: null,
    locationKey: newLocationKey(),
    createdAt: now,
    updatedAt: now,
  };
  await insertClient(env, client, accounts);
  await ledgerOf(env, clientId).onboard({
    clientId,
    name: client.name,
    ...merchantProfile(client),
    statementStartDate: client.statementStartDate,
    accounts: accounts.map(({ number, ispb, branch, type }) => ({ number, ispb, branch, type })),
  });
  return json(
    {
      clientId,
      clientSecret,
      applicationToken,
      cryptoToken,
      webhookSecret,
      statementStartDate: client.statementStartDate,
      accounts: accounts.map((a) => accountView(env, a)),
    },
    201,
  );
}

export async function handleGetClient(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  return json(clientView(env, client, await listClientAccounts(env, client.id)));
}

const toCents = (amount: number | null | undefined) =>
  amount === null || amount === undefined ? undefined : (centsFromAmount(amount) as number);

export async function handlePatchClient(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  const body = parseWith(PatchClientSchema, await readJsonObject(request));
  const changes: Partial<ClientRow> = { updatedAt: Date.now() };
  if (body.limits) {
    const limits: ClientLimits = { ...client.limits };
    for (const key of ['perTransaction', 'daily', 'monthly', 'perPayeeDaily'] as const) {
      const value = body.limits[key];
      if (value === null) delete limits[key];
      else if (value !== undefined) limits[key] = toCents(value);
    }
    changes.limits = limits;
  }
  if (body.approvalThreshold !== undefined)
    changes.approvalThresholdCents = toCents(body.approvalThreshold) ?? null;
  if (body.blockedPayerDocuments !== undefined)
    changes.blockedPayerDocuments = [...new Set(body.blockedPayerDocuments)];
  if (body.healthWebhookUrl) requireAllowedWebhookUrl(env, body.healthWebhookUrl, 'healthWebhookUrl');
  if (body.healthWebhookUrl !== undefined) changes.healthWebhookUrl = body.healthWebhookUrl;
  if (body.rateLimitPerSecond !== undefined) changes.rateLimitPerSecond = body.rateLimitPerSecond;
  if (body.merchantName !== undefined) changes.merchantName = body.merchantName;
  if (body.merchantCity !== undefined) changes.merchantCity = body.merchantCity;
  const updated = (await updateClient(env, client.id, changes)) ?? client;
  if (body.merchantName !== undefined || body.merchantCity !== undefined)
    await ledgerOf(env, client.id).setMerchantText(merchantProfile(updated));
  forgetCredentials(client.id);
  return json(clientView(env, updated, await listClientAccounts(env, client.id)));
}

export async function handleRotateCryptoToken(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  const cryptoToken = newCryptoToken();
  await updateClient(env, client.id, {
    cryptoTokenSealed: await encryptSecret(cryptoToken, env.DATA_ENCRYPTION_KEY),
    updatedAt: Date.now(),
  });
  forgetCredentials(client.id);
  return json({ cryptoToken }, 201);
}

export async function handleDeactivateCryptoToken(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  await updateClient(env, client.id, { cryptoTokenSealed: null, updatedAt: Date.now() });
  forgetCredentials(client.id);
  return new Response(null, { status: 204 });
}

export async function handleDeactivateApplicationToken(
  request: ApiRequest,
  { env }: RequestContext,
): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  await updateClient(env, client.id, { applicationTokenActive: false, updatedAt: Date.now() });
  forgetCredentials(client.id);
  return new Response(null, { status: 204 });
}
