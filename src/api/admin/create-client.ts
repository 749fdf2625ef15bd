/** POST /admin/clients (docs/contract.md, Operator API): onboard a client, its credentials and accounts. */
import { ledgerOf } from '../../../durable-objects/stubs';
import { type AccountRow, type ClientRow, insertClient } from '../../db/clients';
import { newAccountNumber } from '../../domain/accounts';
import { newLocationKey } from '../../domain/ids';
import { brtDate } from '../../domain/time';
import { changeRecord, recorded } from '../../http/audit';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { defaultPartners, settlementPartner } from '../../partners/config';
import { encryptSecret, newCryptoToken, newWebhookSecret, sha256Hex } from '../../security/secrets';
import { route } from '../route-table';
import { accountView, merchantProfile } from './clients';
import { ClientCreated } from './openapi-responses';
import { CreateClientSchema, createClientSchema } from './schemas';
import { ACCOUNTS, CLIENT, operator } from './shared';

async function handleCreateClient({
  rc,
  body,
}: Input<{ body: typeof CreateClientSchema }>): Promise<Response> {
  const { env } = rc;
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
    payerPolicy: body.payerPolicy ?? 'ANY',
    healthWebhookUrl: null,
    rateLimitPerSecond: null,
    locationKey: newLocationKey(),
    createdAt: now,
    updatedAt: now,
  };
  // The record names the client, never its credentials.
  const audit = changeRecord(rc, 'createClient', `/admin/clients/${clientId}`, {
    after: { clientId, name: client.name, partners, statementStartDate: client.statementStartDate },
  });
  await insertClient(env, client, accounts, audit);
  recorded(rc);
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

export const createClient = route(
  operator({
    role: 'ADMIN',
    method: 'post',
    path: '/admin/clients',
    operationId: 'createClient',
    summary: 'Onboard a client',
    description:
      'Creates the client, its credentials and one TRANSACTIONAL and one PROPRIETARY account per partner. Secrets appear only in this answer.',
    body: {
      schema: CreateClientSchema,
      examples: { minimal: example('Name only', { name: 'Loja Exemplo Ltda' }) },
    },
    success: {
      '201': {
        description: 'Onboarded.',
        schema: ClientCreated,
        examples: {
          created: example('Credentials', {
            clientId: CLIENT.clientId,
            clientSecret: '0d1c2b3a-4f5e-4a6b-8c7d-9e0f1a2b3c4d',
            applicationToken: '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928',
            cryptoToken: 'ct_5b8c1f0e9d2a4c7b8e3f6a1d0c9b2e7f',
            webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
            statementStartDate: '2026-11-01',
            accounts: ACCOUNTS,
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR'],
  }),
  handleCreateClient,
  // The document lists the catalog's partners; a deployment accepts the ones it declares.
  { bodySchema: (env) => createClientSchema((ispb) => settlementPartner(env, ispb) !== undefined) },
);
