/**
 * Operator health bodies: importing observations (a new deployment warms its analyzer from the
 * history of the platform it replaces; bootstrap in src/health/baselines/bootstrap.ts) and, in staging,
 * closing windows on demand.
 */
import * as v from 'valibot';
import { ISPB_PATTERN, ISPB_RULE } from '../../domain/ispb';
import { named } from '../../schemas/named';

/** About 200 bytes each: 250 fit the 64 KiB body cap of every JSON request (src/http/body.ts). */
export const MAX_IMPORTED_OBSERVATIONS = 250;

const Ispb = v.pipe(v.string(), v.regex(ISPB_PATTERN, `must be ${ISPB_RULE}`));

/**
 * The observation of docs/contract.md, PIX health, plus the id that makes a repeated import harmless. The
 * analyzer's own parser (exact timestamp forms) runs after this in the handler, with the item's index in
 * the error.
 */
export const ImportedObservationSchema = v.strictObject({
  id: v.pipe(
    v.string('id is required: the analyzer counts an id once'),
    v.minLength(1, 'id is required: the analyzer counts an id once'),
    v.maxLength(120, 'id must have at most 120 characters'),
  ),
  at: v.pipe(v.string('at must be an ISO 8601 instant with offset'), v.maxLength(40)),
  clientId: v.pipe(v.string('clientId is required'), v.minLength(1), v.maxLength(100)),
  customerId: v.optional(v.pipe(v.string(), v.maxLength(100))),
  operation: v.picklist(['CASH_IN', 'CASH_OUT'], 'operation must be CASH_IN or CASH_OUT'),
  partnerIspb: Ispb,
  institutionIspb: v.optional(Ispb),
  event: v.picklist(
    ['CREATED', 'SETTLED', 'FAILED', 'EXPIRED', 'RETURNED'],
    'event must be CREATED, SETTLED, FAILED, EXPIRED or RETURNED',
  ),
  failureCode: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(60))),
  latencyMs: v.optional(v.pipe(v.number(), v.minValue(0))),
});

export const ImportObservationsSchema = named(
  'ImportObservationsRequest',
  v.strictObject({
    observations: v.pipe(
      v.array(ImportedObservationSchema, 'observations must be an array'),
      v.minLength(1, 'observations must not be empty'),
      v.maxLength(
        MAX_IMPORTED_OBSERVATIONS,
        `observations must have at most ${MAX_IMPORTED_OBSERVATIONS} items`,
      ),
    ),
  }),
  {
    observations:
      'Observations (the shape of the health queue), each with a unique `id` (an id already ' +
      'counted is skipped, so a repeated import is harmless). Older than the analyzer has seen, they ' +
      'bootstrap it: recent live traffic waits until the history stops arriving.',
  },
);

export const AdvanceAnalyzerSchema = named(
  'AdvanceAnalyzerRequest',
  v.strictObject({
    until: v.pipe(
      v.string('until is required'),
      v.isoTimestamp('until must be an ISO 8601 timestamp'),
      v.check((s) => Number.isFinite(Date.parse(s)), 'until must be a real instant'),
    ),
  }),
  {
    until: 'Every 5-minute window that ends at or before this instant is closed now.',
  },
);
