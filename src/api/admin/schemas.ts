/** Operator API bodies (docs/contract.md, Operator API). */

import * as v from 'valibot';
import { FAILURE_CODES } from '../../domain/failure-codes';
import { ISPB_PATTERN, ISPB_RULE, isIspb } from '../../domain/ispb';
import { merchantCityText, merchantNameText } from '../../domain/merchant';
import { PAYER_POLICIES } from '../../domain/payer-rules';
import { DELIVERY_STATUSES } from '../../domain/webhook-delivery';
import { SETTLEMENT_PARTNERS } from '../../partners/catalog';
import { PARTNER_TIMEOUT_MS } from '../../partners/timeout';
import { AmountSchema, DocumentSchema, HttpUrlSchema } from '../../schemas/common';
import { describeCheck, named } from '../../schemas/named';

const CATALOG_ISPBS = new Set(SETTLEMENT_PARTNERS.map((p) => p.ispb));

const CalendarDate = v.pipe(
  v.string('must be a date YYYY-MM-DD'),
  v.isoDate('must be a date YYYY-MM-DD'),
  v.check(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'must be a real calendar date',
  ),
);

/** BR Code merchant text (docs/contract.md, BR Code): something must be left after transliteration. */
const merchantText = (field: string, toBrCode: (text: string) => string) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.trim(),
    v.minLength(1, `${field} must not be empty`),
    v.maxLength(100, `${field} must have at most 100 characters`),
    v.check(
      (text) => toBrCode(text) !== '',
      `${field} has no character a BR Code can carry (Latin letters, digits, punctuation)`,
    ),
  );
const MerchantName = merchantText('merchantName', merchantNameText);
const MerchantCity = merchantText('merchantCity', merchantCityText);
const PayerPolicySchema = v.picklist(PAYER_POLICIES, 'payerPolicy must be ANY or DECLARED_PAYER');
const PAYER_POLICY_DOC =
  'Whose payments the client takes: `ANY` (default), or `DECLARED_PAYER`: only from an account ' +
  "of the Cash-In's `payer.document` (a betting operator's bettor). Under it a Cash-In goes only to " +
  'a partner that reports who paid (none: POST /cash-in answers 422 RULE_VIOLATION), and a payment ' +
  'from anyone else is refunded automatically (`PAYER_NOT_ALLOWED`), never confirmed with ' +
  '`CASHIN_PAID`.';

/** The create body, for a given test of "is a settlement partner" (the catalog plus declared ones). */
const createClientFields = (isPartner: (ispb: string) => boolean) =>
  v.strictObject({
    name: v.pipe(
      v.string('name must be a string'),
      v.trim(),
      v.minLength(1, 'name is required'),
      v.maxLength(100, 'name must have at most 100 characters'),
    ),
    merchantName: v.optional(MerchantName),
    merchantCity: v.optional(MerchantCity),
    statementStartDate: v.optional(CalendarDate),
    payerPolicy: v.optional(PayerPolicySchema),
    partners: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string('each partner must be an ISPB string'),
            v.regex(ISPB_PATTERN, `each partner must be an ISPB: ${ISPB_RULE}`),
            // Only a well-formed ISPB is judged as a partner: one reason per refusal.
            v.check((ispb) => !isIspb(ispb) || isPartner(ispb), 'unknown settlement partner ISPB'),
          ),
          'partners must be an array of ISPBs',
        ),
        v.minLength(1, 'partners must not be empty'),
        v.check((list) => new Set(list).size === list.length, 'partners must not repeat'),
      ),
    ),
  });

/** POST /admin/clients: without a merchantName the name itself becomes BR Code field 59. */
export const createClientSchema = (isPartner: (ispb: string) => boolean) =>
  v.pipe(
    createClientFields(isPartner),
    v.forward(
      v.check(
        (c) => c.merchantName !== undefined || merchantNameText(c.name) !== '',
        'name has no character a BR Code can carry: send a merchantName',
      ),
      ['name'],
    ),
  );

/** The create body as documented: the sandbox catalog (a deployment adds its declared partners). */
export const CreateClientSchema = named(
  'CreateClient',
  createClientSchema((ispb) => CATALOG_ISPBS.has(ispb)),
  {
    name: 'Legal or trade name. Without a merchantName it is BR Code field 59, so it must keep a character a BR Code can carry (400 naming it otherwise).',
    merchantName:
      'BR Code field 59 (default: name). Rendered transliterated (accents removed, upper case, ' +
      'other characters dropped) and cut to 25 characters; something must remain, else 400 naming it.',
    merchantCity:
      'BR Code field 60 (default SAO PAULO). Rendered transliterated and cut to 15 characters; something must remain, else 400 naming it.',
    statementStartDate: 'First day with statement data; default today in America/Sao_Paulo.',
    payerPolicy: PAYER_POLICY_DOC,
    partners:
      'ISPBs of the settlement partners to open accounts at. Default: in staging the sandbox ' +
      'partners, in production every partner the deployment declares (none declared: 503 ' +
      'SERVICE_UNAVAILABLE). Production never accepts a sandbox partner.',
  },
);
describeCheck(
  CreateClientSchema.entries.partners.wrapped.pipe[0].item.pipe[2],
  'The ISPB of one of the configured settlement partners',
);

const OptionalAmount = v.optional(v.nullable(AmountSchema));

export const PatchClientSchema = named(
  'PatchClient',
  v.strictObject({
    limits: v.optional(
      v.strictObject(
        {
          perTransaction: OptionalAmount,
          daily: OptionalAmount,
          monthly: OptionalAmount,
          perPayeeDaily: OptionalAmount,
        },
        'limits must be an object',
      ),
    ),
    approvalThreshold: OptionalAmount,
    blockedPayerDocuments: v.optional(
      v.pipe(v.array(DocumentSchema, 'blockedPayerDocuments must be an array'), v.maxLength(10_000)),
    ),
    payerPolicy: v.optional(PayerPolicySchema),
    healthWebhookUrl: v.optional(v.nullable(HttpUrlSchema)),
    merchantName: v.optional(MerchantName),
    merchantCity: v.optional(MerchantCity),
    rateLimitPerSecond: v.optional(
      v.nullable(v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1), v.maxValue(1_000_000))),
    ),
  }),
  {
    limits: 'Withdrawal limits in BRL (`null` removes one); exceeding them ends a Cash-Out CANCELLED.',
    approvalThreshold:
      'Cash-Outs at or above this amount wait for operator approval (PENDING); `null` removes it.',
    blockedPayerDocuments:
      'Paying accounts (`paidBy.document`, never the declared payer) whose payments are refunded automatically with PAYER_NOT_ALLOWED.',
    payerPolicy: PAYER_POLICY_DOC,
    healthWebhookUrl: 'Receives PIX_INCIDENT_* events; `null` removes it.',
    merchantName:
      'BR Code field 59 (default: the client name). Rendered transliterated (accents removed, ' +
      'upper case, other characters dropped) and cut to 25 characters; something must remain, else 400 ' +
      'naming it.',
    merchantCity:
      'BR Code field 60 (default SAO PAULO). Rendered transliterated and cut to 15 characters; something must remain, else 400 naming it.',
    rateLimitPerSecond:
      "Requests per second the client may make (bursts up to one second's worth, refilled " +
      'continuously); beyond it every authenticated request and POST /auth/token for this client ' +
      'answers 429 `RATE_LIMITED` with `Retry-After`. A change applies everywhere within 2 s; `null` ' +
      '(the default) removes the limit.',
  },
);

export const PartnerFaultSchema = named(
  'PartnerFaultRequest',
  v.strictObject({
    operation: v.picklist(['CASH_IN', 'CASH_OUT'], 'operation must be CASH_IN or CASH_OUT'),
    failureRate: v.optional(
      v.pipe(
        v.number('failureRate must be a number'),
        v.minValue(0, 'failureRate must be between 0 and 1'),
        v.maxValue(1, 'failureRate must be between 0 and 1'),
      ),
      0,
    ),
    failureCode: v.optional(
      v.picklist(FAILURE_CODES, 'failureCode must be one of the Cash-Out failure codes'),
    ),
    latencyMs: v.optional(
      v.pipe(
        v.number(),
        v.integer('latencyMs must be an integer'),
        v.minValue(0),
        v.maxValue(60_000, 'latencyMs must be at most 60000'),
      ),
      0,
    ),
    minutes: v.pipe(
      v.number('minutes is required'),
      v.integer('minutes must be an integer'),
      v.minValue(1),
      v.maxValue(1440, 'minutes must be at most 1440'),
    ),
  }),
  {
    operation: 'Which traffic of the sandbox partner misbehaves.',
    failureRate:
      'Share of operations that fail, 0 to 1: Cash-Out payments for CASH_OUT, refund devolutions for CASH_IN.',
    failureCode:
      'Failure code of the failures: Cash-Out payments (CASH_OUT), or refund devolutions (CASH_IN; default PROVIDER_UNAVAILABLE).',
    latencyMs:
      `Extra latency per call to the partner. Beyond ${PARTNER_TIMEOUT_MS} ms the ` +
      `gateway stops waiting: a charge registration answers 422 RULE_VIOLATION; a payment or devolution ` +
      `may still have reached the partner, so the gateway asks it, then sends again under the same ` +
      `idempotency id, and the partner makes it once.`,
    minutes: 'How long the fault lasts.',
  },
);

/** GET /admin/clients/{clientId}/webhook-deliveries query. */
export const DeliveryQuerySchema = v.object({
  status: v.optional(v.picklist(DELIVERY_STATUSES, `status must be one of ${DELIVERY_STATUSES.join(', ')}`)),
  aggregateId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 500'),
      v.transform(Number),
      v.minValue(1, 'limit must be an integer from 1 to 500'),
      v.maxValue(500, 'limit must be an integer from 1 to 500'),
    ),
    '50',
  ),
  cursor: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'cursor must be copied from nextCursor'), v.transform(Number)),
  ),
});

/** POST /admin/clients/{clientId}/archive: archive every closed transaction settled before `before`. */
export const ArchiveSchema = named(
  'ArchiveRequest',
  v.strictObject({
    before: v.pipe(
      v.string('before must be an ISO 8601 instant'),
      v.isoTimestamp('before must be an ISO 8601 instant'),
      v.check((s) => Number.isFinite(Date.parse(s)), 'before must be a real instant'),
    ),
  }),
  {
    before:
      'ISO 8601 instant with offset: every closed transaction settled before it is archived, whatever the retention window.',
  },
);
