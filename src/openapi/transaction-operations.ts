/**
 * The read operations of Cash-In and Cash-Out (by id, list, summary), declared once: the two kinds
 * differ in name, examples and wording, never in shape.
 */
import type * as v from 'valibot';
import type { ErrorCode } from '../domain/error-codes';
import type { Schema } from './json-schema';
import type { Example, OperationSpec } from './operation';
import { listParameters, periodParameters } from './parameters';

interface Kind {
  /** `Cash-In` or `Cash-Out`: the tag and the words. */
  label: 'Cash-In' | 'Cash-Out';
  path: '/cash-in' | '/cash-out';
}

const nameOf = (kind: Kind) => kind.label.replace('-', '');

export function getOperation(
  kind: Kind,
  view: v.GenericSchema,
  idParameter: Schema,
  description: string,
  examples: Record<string, Example>,
  notFound: ErrorCode,
): OperationSpec & { auth: 'client' } {
  return {
    method: 'get',
    path: `${kind.path}/{id}`,
    operationId: `get${nameOf(kind)}`,
    summary: `Read one ${kind.label}`,
    tag: kind.label,
    auth: 'client',
    parameters: [idParameter],
    success: { '200': { description, schema: view, examples } },
    errors: [notFound],
  };
}

export function listOperation(
  kind: Kind,
  schema: v.GenericSchema,
  page: Example,
): OperationSpec & { auth: 'client' } {
  return {
    method: 'get',
    path: kind.path,
    operationId: `list${nameOf(kind)}s`,
    summary: `List ${kind.label}s`,
    description: `${kind.label}s created in the period (by creation time), cursor-paginated. There is no total.`,
    tag: kind.label,
    auth: 'client',
    parameters: listParameters,
    success: {
      '200': {
        description: `One page; each item as GET ${kind.path}/{id}.`,
        schema,
        examples: { page },
      },
    },
    errors: ['VALIDATION_ERROR', 'LIST_ORDER_MISMATCH'],
  };
}

export function summaryOperation(
  kind: Kind,
  schema: v.GenericSchema,
  words: { description?: string; success: string },
  summary: Example,
): OperationSpec & { auth: 'client' } {
  return {
    method: 'get',
    path: `${kind.path}/summary`,
    operationId: `summarize${nameOf(kind)}s`,
    summary: `Aggregate ${kind.label}s`,
    ...(words.description !== undefined && { description: words.description }),
    tag: kind.label,
    auth: 'client',
    parameters: periodParameters,
    success: {
      '200': { description: words.success, schema, examples: { summary } },
    },
    errors: ['VALIDATION_ERROR'],
  };
}
