/**
 * Fault injection into the sandbox partners (docs/contract.md, Sandbox): staging-only operations,
 * documented everywhere; their handlers (./handlers-faults.ts) are bound by ./routes-staging.ts,
 * which only the staging entry imports.
 */
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { ispbParameter } from '../../openapi/parameters';
import { PartnerFault } from './openapi-responses';
import { PartnerFaultSchema } from './schemas';
import { noContent, operator } from './shared';

export const partnerFaultOperations: OperationSpec[] = [
  operator({
    role: 'ADMIN',
    method: 'post',
    path: '/admin/partners/{ispb}/faults',
    operationId: 'injectPartnerFault',
    summary: 'Make a sandbox partner misbehave',
    description:
      'For that many minutes the sandbox partner fails or slows down the given operation (it ' +
      'feeds the PIX health engine). An unknown ISPB answers 404 NOT_FOUND.',
    stagingOnly: true,
    parameters: [ispbParameter],
    body: {
      schema: PartnerFaultSchema,
      examples: {
        outage: example('Half of the Cash-Outs fail for 15 minutes', {
          operation: 'CASH_OUT',
          failureRate: 0.5,
          failureCode: 'PAYEE_BANK_UNAVAILABLE',
          minutes: 15,
        }),
      },
    },
    success: {
      '201': {
        description: 'The fault is active.',
        schema: PartnerFault,
        examples: {
          fault: example('Active fault', {
            ispb: '31880826',
            operation: 'CASH_OUT',
            failureRate: 0.5,
            failureCode: 'PAYEE_BANK_UNAVAILABLE',
            latencyMs: 0,
            startsAt: '2026-11-21T13:00:00.000Z',
            endsAt: '2026-11-21T13:15:00.000Z',
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'NOT_FOUND'],
  }),
  operator({
    role: 'ADMIN',
    method: 'delete',
    path: '/admin/partners/{ispb}/faults',
    operationId: 'clearPartnerFaults',
    summary: 'Stop every fault of a sandbox partner',
    stagingOnly: true,
    parameters: [ispbParameter],
    success: noContent,
    errors: ['VALIDATION_ERROR', 'NOT_FOUND'],
  }),
];
