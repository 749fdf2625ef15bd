/** GET /admin/reconciliation: a real partner's day against our books, as last checked. D1 only. */
import * as v from 'valibot';
import { daysBehind, findReport } from '../../db/reconciliation-reports';
import { lastClosedDay } from '../../domain/reconciliation-days';
import { BREAK_KINDS } from '../../domain/reconciliation-matching';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { validationError } from '../../http/validation';
import { example } from '../../openapi/examples';
import { inlineSchema } from '../../openapi/json-schema';
import { parameter } from '../../openapi/parameters';
import { declaredPartners } from '../../partners/config';
import { route } from '../route-table';
import { ReconciliationQuerySchema } from './schemas';

const RECONCILIATION_NOTES: Record<string, string> = {
  date: 'The day, YYYY-MM-DD in America/Sao_Paulo.',
  ispb: 'The partner (its ISPB); may be left out when exactly one real partner is declared.',
};

const Money = v.pipe(v.number(), v.description('BRL, 2 decimal places'));

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
      healedAt: v.optional(v.pipe(v.string(), v.isoTimestamp(), v.description('When the run booked it.'))),
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
  balance: v.optional(
    v.pipe(
      v.object({
        books: v.pipe(
          Money,
          v.description(
            'What our books hold at the partner at the check: every client account and suspense account there.',
          ),
        ),
        inFlightOut: v.pipe(
          Money,
          v.description(
            'Of books, what was already asked of the partner and has not settled: Cash-Outs ' +
              'sent, refunds and returns of unapplied receipts the partner took. A bank debits them when it ' +
              'takes them; our books when they settle.',
          ),
        ),
        ours: v.pipe(Money, v.description('books − inFlightOut: the figure compared with theirs.')),
        theirs: v.pipe(Money, v.description("The partner's balance at the check.")),
      }),
      v.description(
        "The balance check, where the partner's API reports its balance: both sides as of the " +
          "check, after the day's heals. A difference is a BALANCE break whose ours and theirs are these.",
      ),
    ),
  ),
  daysBehind: v.pipe(
    v.number(),
    v.integer(),
    v.description(
      "How many of this partner's closed days (this one or any other, from the first day ever " +
        'checked, at most 35 back) have no final report yet: never checked, or PENDING. Each is tried ' +
        'again, oldest first, a few a run, until it is MATCHED or BREAKS; 0 when the reconciliation is up ' +
        'to date.',
    ),
  ),
});

async function handleGetReconciliation({
  env,
  query,
}: Input<{ query: typeof ReconciliationQuerySchema }>): Promise<Response> {
  const real = declaredPartners(env).filter((p) => p.kind === 'bcb-api-pix');
  let ispb = query.ispb;
  if (ispb === undefined) {
    if (real.length !== 1)
      throw validationError({ ispb: ['ispb is required: name the partner (several or none are declared)'] });
    ispb = real[0]?.ispb as string;
  }
  const kept = await findReport(env, query.date, ispb);
  if (!kept)
    throw new ProblemError('NOT_FOUND', `No reconciliation of partner ${ispb} for ${query.date} yet`);
  return json({ ...kept.report, daysBehind: await daysBehind(env, ispb, lastClosedDay(Date.now())) });
}

export const getReconciliationReport = route(
  {
    method: 'get',
    path: '/admin/reconciliation',
    operationId: 'getReconciliationReport',
    summary: "A partner's day against our books",
    description:
      "After each America/Sao_Paulo day closes, every real partner's own records of it (received " +
      'Pix with their devolutions, every page; where its payout API lists them, the payouts sent and ' +
      'the account balance) are compared with our books. Each difference is `MISSING_HERE` (the bank ' +
      'has it, we do not), `MISSING_THERE`, `AMOUNT_DIFFERS` or `STATUS_DIFFERS`. A payment or ' +
      'devolution the bank proves and we lack is booked through the normal path and listed in `healed`; ' +
      'everything else stays in `breaks` until an operator looks, and a day with breaks is posted to ' +
      'OPERATOR_ALERT_URL. A re-run of the day replaces its report but keeps every heal of earlier runs ' +
      "(`healed` is the day's whole history). PENDING: the day could not be read in full yet (see " +
      '`pendingReason`); it is tried again, like every closed day not yet checked, oldest first, until ' +
      'it is final: `daysBehind` counts them. 404 NOT_FOUND for a day not yet checked.',
    tag: 'Operator',
    auth: 'operator',
    role: 'VIEWER',
    query: ReconciliationQuerySchema,
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
                healedAt: '2026-11-26T03:30:11.000Z',
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
            daysBehind: 0,
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'NOT_FOUND'],
  },
  handleGetReconciliation,
);
