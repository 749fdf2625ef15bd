/**
 * POST /admin/health/analyzer/advance: close the analyzer's windows up to an instant now. A
 * staging-only operation, documented everywhere; its handler (./handlers.ts) is bound by
 * ./routes-staging.ts, which only the staging entry imports.
 */
import * as v from 'valibot';
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { named } from '../../schemas/named';
import { operator } from '../admin/shared';
import { AdvanceAnalyzerSchema } from './schemas';
import { AnalyzerState, Count, STATE } from './shared';

const AnalyzerAdvanced = named(
  'AnalyzerAdvanced',
  v.object({
    changes: v.pipe(Count, v.description('Incidents detected, updated or resolved by the windows closed.')),
    analyzer: AnalyzerState,
  }),
);

export const advanceAnalyzerOperations: OperationSpec[] = [
  operator({
    role: 'ADMIN',
    method: 'post',
    path: '/admin/health/analyzer/advance',
    operationId: 'advanceHealthAnalyzer',
    summary: 'Close the windows up to an instant now',
    description:
      'Staging: instead of waiting for the alarm a minute after each 5-minute window ends, close ' +
      'every window that ends at or before `until` now (a test or a demo driving time).',
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
