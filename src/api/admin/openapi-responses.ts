/**
 * Response shapes of the operator API (docs/contract.md, Operator API) and the public key set.
 * Operator timestamps are UTC.
 */

import * as v from 'valibot';
import { FAILURE_CODES } from '../../domain/failure-codes';
import { PAYER_POLICIES } from '../../domain/payer-rules';
import { DELIVERY_STATUSES } from '../../domain/webhook-delivery';
import { AccountType, Ispb, Money, UtcTimestamp } from '../../schemas/fields';
import { named } from '../../schemas/named';

const Guid = v.pipe(v.string(), v.uuid());

const OnboardedAccount = v.object({
  number: v.string(),
  branch: v.string(),
  type: AccountType,
  bank: v.object({ ispb: Ispb, name: v.nullable(v.string()) }),
});

export const ClientCreated = named(
  'ClientCreated',
  v.object({
    clientId: Guid,
    clientSecret: v.pipe(Guid, v.description('Shown only in this answer.')),
    applicationToken: v.pipe(Guid, v.description('Shown only in this answer.')),
    cryptoToken: v.pipe(
      v.string(),
      v.description('Key of the DigitalSignature HMAC; shown only in this answer.'),
    ),
    webhookSecret: v.pipe(
      v.string(),
      v.regex(/^whsec_/),
      v.description('Standard Webhooks signing secret: `whsec_` + base64 of 32 bytes; shown only here.'),
    ),
    statementStartDate: v.pipe(v.string(), v.isoDate()),
    accounts: v.pipe(
      v.array(OnboardedAccount),
      v.description('One TRANSACTIONAL and one PROPRIETARY account per partner.'),
    ),
  }),
);

export const Client = named(
  'Client',
  v.object({
    clientId: Guid,
    name: v.string(),
    merchantName: v.pipe(
      v.string(),
      v.description(
        'BR Code field 59 as set (default: name); rendered transliterated (no accents, upper case) and cut to 25 characters.',
      ),
    ),
    merchantCity: v.pipe(
      v.string(),
      v.description(
        'BR Code field 60 as set (default SAO PAULO); rendered transliterated and cut to 15 characters.',
      ),
    ),
    statementStartDate: v.pipe(v.string(), v.isoDate()),
    partners: v.array(v.object({ ispb: Ispb, name: v.nullable(v.string()) })),
    accounts: v.array(OnboardedAccount),
    limits: v.object({
      perTransaction: v.optional(Money),
      daily: v.optional(Money),
      monthly: v.optional(Money),
      perPayeeDaily: v.optional(Money),
    }),
    approvalThreshold: v.optional(
      v.pipe(Money, v.description('Cash-Outs at or above this amount wait for approval (PENDING).')),
    ),
    blockedPayerDocuments: v.array(v.string()),
    payerPolicy: v.pipe(
      v.picklist(PAYER_POLICIES),
      v.description(
        "`DECLARED_PAYER`: payments only from the declared payer's own account (docs: Who paid).",
      ),
    ),
    healthWebhookUrl: v.optional(v.string()),
    rateLimitPerSecond: v.optional(v.pipe(v.number(), v.integer())),
    applicationTokenActive: v.boolean(),
    cryptoTokenActive: v.boolean(),
    createdAt: UtcTimestamp,
    updatedAt: UtcTimestamp,
  }),
);

export const CryptoTokenIssued = named(
  'CryptoTokenIssued',
  v.object({
    cryptoToken: v.pipe(v.string(), v.description('The new CryptoToken; the previous one stops working.')),
  }),
);

export const PartnerFault = named(
  'PartnerFault',
  v.object({
    ispb: Ispb,
    operation: v.picklist(['CASH_IN', 'CASH_OUT']),
    failureRate: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
    failureCode: v.optional(v.picklist(FAILURE_CODES)),
    latencyMs: v.pipe(v.number(), v.integer()),
    startsAt: UtcTimestamp,
    endsAt: UtcTimestamp,
  }),
);

export const WebhookDelivery = named(
  'WebhookDelivery',
  v.object({
    eventId: v.pipe(v.string(), v.description('The `webhook-id` header of every attempt.')),
    eventType: v.pipe(v.string(), v.examples(['CASHIN_PAID'])),
    aggregateId: v.pipe(v.string(), v.description('transactionId of the Cash-In or Cash-Out.')),
    url: v.optional(v.string()),
    status: v.picklist(DELIVERY_STATUSES),
    attempts: v.pipe(v.number(), v.integer()),
    lastResponseStatus: v.optional(v.pipe(v.number(), v.integer())),
    lastError: v.optional(v.string()),
    nextAttemptAt: v.optional(UtcTimestamp),
    lastAttemptAt: v.optional(UtcTimestamp),
    deliveredAt: v.optional(UtcTimestamp),
    createdAt: UtcTimestamp,
  }),
);

export const WebhookDeliveryPage = named(
  'WebhookDeliveryPage',
  v.object({
    items: v.array(WebhookDelivery),
    nextCursor: v.optional(v.pipe(v.string(), v.description('Send as `cursor` for the next (older) page.'))),
  }),
);

export const ArchiveResult = named(
  'ArchiveResult',
  v.object({
    archivedTransactions: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
  {
    archivedTransactions: 'How many transactions this call moved to the archive (0 when none was eligible).',
  },
);
