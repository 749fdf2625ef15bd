/** PATCH /admin/clients/{clientId} (docs/contract.md, Operator API): limits, approval, blocked payers, health webhook. */
import { ledgerOf } from '../../../durable-objects/stubs';
import { type ClientRow, listClientAccounts, updateClient } from '../../db/clients';
import { forgetCredentials } from '../../db/credentials';
import type { ClientLimits } from '../../domain/limits';
import { centsFromAmount } from '../../domain/money';
import { changeRecord, recorded } from '../../http/audit';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { requireAllowedWebhookUrl } from '../../http/webhook-url';
import { example } from '../../openapi/examples';
import { clientIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { clientView, merchantProfile, requireClient } from './clients';
import { Client } from './openapi-responses';
import { PatchClientSchema } from './schemas';
import { CLIENT, operator } from './shared';

const toCents = (amount: number | null | undefined) =>
  amount === null || amount === undefined ? undefined : (centsFromAmount(amount) as number);

async function handlePatchClient({
  request,
  rc,
  body,
}: Input<{ body: typeof PatchClientSchema }>): Promise<Response> {
  const { env } = rc;
  const client = await requireClient(request, env);
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
  if (body.payerPolicy !== undefined) changes.payerPolicy = body.payerPolicy;
  if (body.healthWebhookUrl) requireAllowedWebhookUrl(env, body.healthWebhookUrl, 'healthWebhookUrl');
  if (body.healthWebhookUrl !== undefined) changes.healthWebhookUrl = body.healthWebhookUrl;
  if (body.rateLimitPerSecond !== undefined) changes.rateLimitPerSecond = body.rateLimitPerSecond;
  if (body.merchantName !== undefined) changes.merchantName = body.merchantName;
  if (body.merchantCity !== undefined) changes.merchantCity = body.merchantCity;
  const changed = Object.keys(changes).filter((key) => key !== 'updatedAt') as (keyof ClientRow)[];
  const pick = (row: Partial<ClientRow>) => Object.fromEntries(changed.map((key) => [key, row[key] ?? null]));
  const audit = changeRecord(rc, 'patchClient', new URL(request.url).pathname, {
    before: pick(client),
    after: pick(changes),
  });
  const updated = (await updateClient(env, client.id, changes, audit)) ?? client;
  recorded(rc);
  if (body.merchantName !== undefined || body.merchantCity !== undefined)
    await ledgerOf(env, client.id).setMerchantText(merchantProfile(updated));
  forgetCredentials(client.id);
  return json(clientView(env, updated, await listClientAccounts(env, client.id)));
}

export const patchClient = route(
  operator({
    role: 'OPERATOR',
    method: 'patch',
    path: '/admin/clients/{clientId}',
    operationId: 'patchClient',
    summary: 'Change limits, approval threshold, payer rules or the health webhook',
    description: '`null` removes a limit, the threshold or the health webhook.',
    parameters: [clientIdParameter],
    body: {
      schema: PatchClientSchema,
      examples: {
        limits: example('Daily limit and approval', { limits: { daily: 50000 }, approvalThreshold: 10000 }),
      },
    },
    success: {
      '200': {
        description: 'The client after the change.',
        schema: Client,
        examples: { client: example('Client', CLIENT) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CLIENT_NOT_FOUND'],
  }),
  handlePatchClient,
);
