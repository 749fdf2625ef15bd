/**
 * Path, query and header parameters. The list and period rules are parsed by hand in
 * src/http/list-query.ts (they span several fields and the cursor); these valibot schemas state
 * the same rules for the document, and test/openapi checks them against the live endpoints.
 */
import * as v from 'valibot';
import { DeliveryQuerySchema } from '../api/admin/schemas';
import { ISPB_PATTERN } from '../domain/ispb';
import { ACCOUNT_NUMBER } from '../domain/statement';
import { inlineSchema, type Schema } from './json-schema';

type In = 'path' | 'query' | 'header';

export function parameter(
  name: string,
  where: In,
  schema: v.GenericSchema,
  description: string,
  required = where === 'path',
): Schema {
  return { name, in: where, required, description, schema: inlineSchema(schema) };
}

const PeriodBound = (bound: 'from' | 'to') =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})?)?$/),
    v.examples([bound === 'from' ? '2026-11-01' : '2026-11-30T23:59:59']),
  );

const PERIOD_NOTE =
  'A plain date `YYYY-MM-DD` or an ISO 8601 timestamp; without an offset the time is America/Sao_Paulo. Both bounds are inclusive.';

export const periodParameters = [
  parameter(
    'from',
    'query',
    PeriodBound('from'),
    `Start of the period. ${PERIOD_NOTE} A plain date starts at 00:00:00.000.`,
    true,
  ),
  parameter(
    'to',
    'query',
    PeriodBound('to'),
    `End of the period. ${PERIOD_NOTE} A plain date ends at 23:59:59.999.`,
    true,
  ),
];

export const listParameters = [
  ...periodParameters,
  parameter(
    'limit',
    'query',
    v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), 50),
    'Page size.',
  ),
  parameter(
    'order',
    'query',
    v.optional(v.picklist(['asc', 'desc']), 'asc'),
    '`asc` (oldest first) or `desc`; must match the order baked into `cursor` (else 422 LIST_ORDER_MISMATCH).',
  ),
  parameter(
    'cursor',
    'query',
    v.string(),
    '`nextCursor` or `previousCursor` of the previous page, verbatim. Keep `from`, `to`, `limit` and `order` identical across a walk.',
  ),
];

export const balanceParameters = [
  parameter(
    'at',
    'query',
    PeriodBound('to'),
    'Balance at this instant, read from the ledger (a plain date means its end). Before the statement start date: 422 RETROACTIVE_BALANCE_NOT_IMPLEMENTED.',
  ),
];

const PathId = v.pipe(v.string(), v.minLength(1), v.maxLength(100));

export const cashInIdParameter = parameter(
  'id',
  'path',
  PathId,
  'internalCode, transactionId (TxId), payment or refund endToEndId, or externalReference. On ' +
    'several matches: internalCode, then transactionId, then payment endToEndId, then refund ' +
    'endToEndId, then externalReference; the most recent wins within a level.',
);

export const cashOutIdParameter = parameter(
  'id',
  'path',
  PathId,
  'internalCode, transactionId (UUID), endToEndId or externalReference, with the same precedence as Cash-In.',
);

export const accountNumberParameter = parameter(
  'number',
  'path',
  v.pipe(v.string(), v.regex(ACCOUNT_NUMBER)),
  "Account number exactly as in the client's onboarding data. Another client's account answers like a nonexistent one.",
);

export const clientIdParameter = parameter(
  'clientId',
  'path',
  v.pipe(v.string(), v.uuid()),
  'The clientId from onboarding.',
);

export const ispbParameter = parameter(
  'ispb',
  'path',
  v.pipe(v.string(), v.regex(ISPB_PATTERN)),
  'ISPB of a settlement partner: 8 digits or upper-case letters (bacen/pix-api 2.9.0).',
);

export const eventIdParameter = parameter(
  'eventId',
  'path',
  PathId,
  'The delivery `eventId` (the `webhook-id` header).',
);

export const locatorParameter = parameter(
  'locator',
  'path',
  v.pipe(v.string(), v.minLength(1)),
  'The last path segment of a sandbox BR Code location or of `openFinanceData.paymentUrl`: the ' +
    "client's random location key (22 characters, not its id) + the charge's internalCode.",
);

export const idempotencyKeyParameter = parameter(
  'X-Idempotency-Key',
  'header',
  v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  'Optional; a UUID v4 per operation is recommended. Same key and body within 24 h: the original ' +
    'response, with `Idempotent-Replayed: true`. Same key, other body: 422 IDEMPOTENCY_KEY_REUSED. ' +
    'While the first runs: 409 IDEMPOTENCY_KEY_IN_PROGRESS. Over 100 characters or blank: 400 ' +
    'IDEMPOTENCY_KEY_INVALID.',
);

const DELIVERY_QUERY_NOTES: Record<string, string> = {
  status: 'Only deliveries in this state.',
  aggregateId: 'Only deliveries of this transaction (transactionId).',
  limit: 'Page size, 1 to 500.',
  cursor: '`nextCursor` of the previous page.',
};

/** The operator's delivery filters: the route's own valibot query schema. */
export const deliveryQueryParameters = Object.entries(DeliveryQuerySchema.entries).map(([name, schema]) =>
  parameter(name, 'query', schema, DELIVERY_QUERY_NOTES[name] ?? name, false),
);

export const replayedHeader = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same key.',
    schema: { type: 'string', enum: ['true'] },
  },
};
