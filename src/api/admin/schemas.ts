/** Operator API bodies (docs/contract.md, Operator API). */
import * as v from 'valibot';
import { FAILURE_CODES } from '../../domain/failure-codes';
import { ISPB_PATTERN, ISPB_RULE, isIspb } from '../../domain/ispb';
import { merchantCityText, merchantNameText } from '../../domain/merchant';
import { DELIVERY_STATUSES } from '../../domain/webhook-delivery';
import { SETTLEMENT_PARTNERS } from '../../partners/catalog';
import { AmountSchema, DocumentSchema, HttpUrlSchema, IspbSchema } from '../../schemas/common';

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
export const CreateClientSchema = createClientSchema((ispb) => CATALOG_ISPBS.has(ispb));

const OptionalAmount = v.optional(v.nullable(AmountSchema));

export const PatchClientSchema = v.strictObject({
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
  healthWebhookUrl: v.optional(v.nullable(HttpUrlSchema)),
  merchantName: v.optional(MerchantName),
  merchantCity: v.optional(MerchantCity),
  rateLimitPerSecond: v.optional(
    v.nullable(v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1), v.maxValue(1_000_000))),
  ),
});

export const PartnerFaultSchema = v.strictObject({
  operation: v.picklist(['CASH_IN', 'CASH_OUT'], 'operation must be CASH_IN or CASH_OUT'),
  failureRate: v.optional(
    v.pipe(
      v.number('failureRate must be a number'),
      v.minValue(0, 'failureRate must be between 0 and 1'),
      v.maxValue(1, 'failureRate must be between 0 and 1'),
    ),
    0,
  ),
  failureCode: v.optional(v.picklist(FAILURE_CODES, 'failureCode must be one of the Cash-Out failure codes')),
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
});

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

/** The `{ispb}` of /admin/partners/{ispb}/...: malformed is a 400 naming `ispb`, never a 404. */
export const PartnerPathSchema = v.object({ ispb: IspbSchema });

/** PUT /admin/partners/{ispb}/webhook: where this gateway is reachable from the partner. */
export const PartnerWebhookSchema = v.strictObject({
  baseUrl: v.pipe(
    v.string('baseUrl must be a string'),
    v.regex(
      /^https?:\/\/[^/?#\s]+\/?$/,
      'baseUrl must be a scheme and host only, e.g. https://api.example.com',
    ),
  ),
});

/** POST /admin/clients/{clientId}/archive: archive every closed transaction settled before `before`. */
export const ArchiveSchema = v.strictObject({
  before: v.pipe(
    v.string('before must be an ISO 8601 instant'),
    v.isoTimestamp('before must be an ISO 8601 instant'),
    v.check((s) => Number.isFinite(Date.parse(s)), 'before must be a real instant'),
  ),
});
