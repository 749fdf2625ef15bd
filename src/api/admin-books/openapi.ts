/** Operator views of the books against the banks: unapplied receipts and daily reconciliation reports. */
import * as v from 'valibot';
import { BREAK_KINDS } from '../../domain/reconciliation';
import { UNAPPLIED_REASONS, UNAPPLIED_STATUSES } from '../../domain/unapplied';
import { example } from '../../openapi/examples';
import { inlineSchema } from '../../openapi/json-schema';
import type { OperationSpec } from '../../openapi/operation';
import { parameter } from '../../openapi/parameters';
import { ReconciliationQuerySchema, UnappliedQuerySchema } from './schemas';

const operator = (spec: Omit<OperationSpec, 'tag' | 'auth'>): OperationSpec => ({
  ...spec,
  tag: 'Operator',
  auth: 'operator',
});

const UNAPPLIED_NOTES: Record<string, string> = {
  status: 'Only receipts whose return is in this state: PROCESSING (being returned), RETURNED, FAILED.',
  ispb: 'Only receipts of this partner (its ISPB).',
  from: 'Received at or after (a date, America/Sao_Paulo, or an ISO 8601 timestamp).',
  to: 'Received at or before (a date covers the whole day).',
  limit: 'Page size, 1 to 500 (default 50).',
  cursor: '`nextCursor` of the previous page, with the same `from` and `to`.',
};

const RECONCILIATION_NOTES: Record<string, string> = {
  date: 'The day, YYYY-MM-DD in America/Sao_Paulo.',
  ispb: 'The partner (its ISPB); may be left out when exactly one real partner is declared.',
};

const Money = v.pipe(v.number(), v.description('BRL, 2 decimal places'));

const Unapplied = v.object({
  id: v.string(),
  ispb: v.string(),
  endToEndId: v.pipe(v.string(), v.description('The payment as the partner reported it.')),
  txid: v.optional(v.pipe(v.string(), v.description('The txid the payment named, when it named one.'))),
  clientId: v.optional(
    v.pipe(
      v.string(),
      v.description("The client the txid names: the receipt is held in that client's suspense account."),
    ),
  ),
  amount: Money,
  receivedAt: v.pipe(v.string(), v.isoTimestamp()),
  reason: v.picklist(UNAPPLIED_REASONS),
  return: v.object({
    id: v.pipe(
      v.string(),
      v.description(
        'The devolution id at the partner, derived from the payment: a retry asks for the same one.',
      ),
    ),
    status: v.picklist(UNAPPLIED_STATUSES),
    endToEndId: v.optional(
      v.pipe(v.string(), v.description('The return as the network settled it (RtrId).')),
    ),
    returnedAt: v.optional(v.pipe(v.string(), v.isoTimestamp())),
    failure: v.optional(v.pipe(v.string(), v.description('Why the partner did not return it (FAILED).'))),
  }),
});

const Fact = v.object({ amount: Money, status: v.picklist(['SETTLED', 'PENDING', 'FAILED']) });
const Subject = v.picklist(['RECEIVED', 'DEVOLUTION', 'PAYOUT', 'BALANCE']);

const Report = v.object({
  date: v.string(),
  ispb: v.string(),
  status: v.picklist(['MATCHED', 'BREAKS', 'PENDING']),
  checkedAt: v.pipe(v.string(), v.isoTimestamp()),
  counts: v.pipe(
    v.record(v.string(), v.number()),
    v.description('What was read and done: pages, items on each side, lookups, healed, breaks, duration.'),
  ),
  healed: v.array(
    v.object({
      kind: v.literal('MISSING_HERE'),
      subject: Subject,
      endToEndId: v.string(),
      transactionId: v.optional(v.string()),
      outcome: v.pipe(v.array(v.string()), v.description('What booking it through the normal path did.')),
    }),
  ),
  breaks: v.array(
    v.object({
      kind: v.picklist(BREAK_KINDS),
      subject: Subject,
      endToEndId: v.optional(v.string()),
      transactionId: v.optional(v.string()),
      ours: v.optional(Fact),
      theirs: v.optional(Fact),
    }),
  ),
  pendingReason: v.optional(v.string()),
});

export const adminBooksOperations: OperationSpec[] = [
  operator({
    method: 'get',
    path: '/admin/unapplied',
    operationId: 'listUnappliedReceipts',
    summary: 'List money no Cash-In could take, and its return',
    description:
      "Newest first. Every Pix a real partner reported (callback or sweep) that no Cash-In could take becomes an unapplied receipt in the transaction that decided so: `DUPLICATE` (a second payment of a paid charge), `NOT_PAYABLE` (a payment after a cancel or expiry), `AMOUNT_MISMATCH` (another amount than the charge's), `UNKNOWN_CHARGE` (a txid we never issued). It is held for the payer in a suspense account (of the client its txid names, else of the partner), never in a client's balance, and returned in full through the partner's devolution under `return.id`. `return.status` ends RETURNED when the partner confirms, or FAILED with `return.failure`, which the operator must act on.",
    parameters: Object.entries(UnappliedQuerySchema.entries).map(([name, schema]) =>
      parameter(name, 'query', schema, UNAPPLIED_NOTES[name] ?? name, false),
    ),
    success: {
      '200': {
        description: 'One page of receipts; `nextCursor` is null on the last page.',
        schema: inlineSchema(v.object({ items: v.array(Unapplied), nextCursor: v.nullable(v.string()) })),
        examples: {
          page: example('A second payment of a paid charge, returned', {
            items: [
              {
                id: 'UNR3F1C0A9B2E4D6F8A1B3C5D7E9F0A1',
                ispb: '09089356',
                endToEndId: 'E60701190202611251200ABCDEFGHIJK',
                txid: '1bJ8xY2kPq9LmN3rT5vW7zA0cE4gH6iKsd',
                clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
                amount: 150.25,
                receivedAt: '2026-11-25T15:00:00.000Z',
                reason: 'DUPLICATE',
                return: {
                  id: 'D09089356202611251500A1B2C3D4E5F',
                  status: 'RETURNED',
                  endToEndId: 'D09089356202611251500A1B2C3D4E5F',
                  returnedAt: '2026-11-25T15:00:04.000Z',
                },
              },
            ],
            nextCursor: null,
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR'],
  }),
  operator({
    method: 'get',
    path: '/admin/reconciliation',
    operationId: 'getReconciliationReport',
    summary: "A partner's day against our books",
    description:
      "After each America/Sao_Paulo day closes, every real partner's own records of it (received Pix with their devolutions, every page; where its payout API lists them, the payouts sent and the account balance) are compared with our books. Each difference is `MISSING_HERE` (the bank has it, we do not), `MISSING_THERE`, `AMOUNT_DIFFERS` or `STATUS_DIFFERS`. A payment or devolution the bank proves and we lack is booked through the normal path and listed in `healed`; everything else stays in `breaks` until an operator looks, and a day with breaks is posted to OPERATOR_ALERT_URL. PENDING: the day could not be read in full yet (see `pendingReason`); it is tried again. 404 NOT_FOUND for a day not yet checked.",
    parameters: Object.entries(ReconciliationQuerySchema.entries).map(([name, schema]) =>
      parameter(name, 'query', schema, RECONCILIATION_NOTES[name] ?? name, name === 'date'),
    ),
    success: {
      '200': {
        description: 'The report as last checked.',
        schema: inlineSchema(Report),
        examples: {
          breaks: example('One Pix healed, one payout the bank lists as not made', {
            date: '2026-11-25',
            ispb: '09089356',
            status: 'BREAKS',
            checkedAt: '2026-11-26T03:30:12.000Z',
            counts: { receivedPages: 1, receivedTheirs: 412, matched: 447, lookups: 2, healed: 1, breaks: 1 },
            healed: [
              {
                kind: 'MISSING_HERE',
                subject: 'RECEIVED',
                endToEndId: 'E60701190202611252359ABCDEFGHIJK',
                transactionId: '1bJ8xY2kPq9LmN3rT5vW7zA0cE4gH6iKsd',
                outcome: ['paid'],
              },
            ],
            breaks: [
              {
                kind: 'STATUS_DIFFERS',
                subject: 'PAYOUT',
                endToEndId: 'E09089356202611251830API00000042',
                transactionId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
                ours: { amount: 80, status: 'SETTLED' },
                theirs: { amount: 80, status: 'FAILED' },
              },
            ],
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'NOT_FOUND'],
  }),
];
