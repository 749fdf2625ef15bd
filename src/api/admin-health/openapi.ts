/** Operator API of the PIX health analyzer: history import, state, and (staging) closing windows. */
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { AnalyzerAdvanced, AnalyzerState, ObservationsQueued } from '../admin/openapi-responses';
import { AdvanceAnalyzerSchema, ImportObservationsSchema } from './schemas';

const operator = (spec: Omit<OperationSpec, 'tag' | 'auth'>): OperationSpec => ({
  ...spec,
  tag: 'Operator',
  auth: 'operator',
});

const STATE = {
  warm: true,
  bootstrapping: false,
  liveFrom: null,
  parked: 0,
  accepted: 1_204_346,
  ingested: 1_204_331,
  late: 12,
  droppedLate: 0,
  duplicates: 3,
  rejected: 0,
  windowsClosed: 1_152,
};

export const adminHealthOperations: OperationSpec[] = [
  operator({
    method: 'post',
    path: '/admin/health/observations',
    operationId: 'importHealthObservations',
    summary: 'Import observations into the PIX health analyzer',
    description:
      'Up to 250 observations per call go onto the health queue, like the ones every transaction emits. A new deployment imports the platform history it replaces (days of it) so the analyzer starts warm: history older than anything it has seen bootstraps it, and the live traffic waits until the history stops arriving. An id already counted is skipped, so an import can be repeated after a failure. Imports are history: each `at` must be within the last 30 days and at most 5 minutes ahead of the gateway clock, else the whole batch answers 400 `VALIDATION_ERROR` naming `observations.<i>.at`.',
    body: {
      schema: ImportObservationsSchema,
      examples: {
        history: example('Two observations of one Cash-Out', {
          observations: [
            {
              id: 'legacy:2026-11-20:000001:c',
              at: '2026-11-20T13:00:01.000Z',
              clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
              operation: 'CASH_OUT',
              partnerIspb: '31880826',
              institutionIspb: '60701190',
              event: 'CREATED',
            },
            {
              id: 'legacy:2026-11-20:000001:s',
              at: '2026-11-20T13:00:02.400Z',
              clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
              operation: 'CASH_OUT',
              partnerIspb: '31880826',
              institutionIspb: '60701190',
              event: 'SETTLED',
              latencyMs: 1400,
            },
          ],
        }),
      },
    },
    success: {
      '202': {
        description: 'Queued; the analyzer counts them within seconds.',
        schema: ObservationsQueued,
        examples: { queued: example('Queued', { queued: 2 }) },
      },
    },
    errors: ['VALIDATION_ERROR'],
  }),
  operator({
    method: 'get',
    path: '/admin/health/analyzer',
    operationId: 'getHealthAnalyzer',
    summary: "The PIX health analyzer's state",
    success: {
      '200': {
        description: 'What the analyzer has counted and whether it can judge yet.',
        schema: AnalyzerState,
        examples: { warm: example('A warm analyzer', STATE) },
      },
    },
  }),
  operator({
    method: 'post',
    path: '/admin/health/analyzer/advance',
    operationId: 'advanceHealthAnalyzer',
    summary: 'Close the windows up to an instant now',
    description:
      'Staging: instead of waiting for the alarm a minute after each 5-minute window ends, close every window that ends at or before `until` now (a test or a demo driving time).',
    stagingOnly: true,
    body: {
      schema: AdvanceAnalyzerSchema,
      examples: { now: example('Up to a window boundary', { until: '2026-11-25T13:05:00.000Z' }) },
    },
    success: {
      '200': {
        description: 'Closed; incident changes were published as usual.',
        schema: AnalyzerAdvanced,
        examples: { advanced: example('One incident detected', { changes: 1, analyzer: STATE }) },
      },
    },
    errors: ['VALIDATION_ERROR'],
  }),
];
