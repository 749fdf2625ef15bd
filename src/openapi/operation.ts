/**
 * One documented operation, declared once and expanded into an OpenAPI Operation Object: security
 * and the error responses that follow from its kind of authentication, idempotency and staging
 * gate are added here, so every route of a kind documents them the same way.
 */
import type * as v from 'valibot';
import type { ErrorCode } from '../domain/error-codes';
import type { Role } from '../domain/operators';
import { isValibotSchema, ref, type Schema } from './json-schema';
import { idempotencyKeyParameter, replayedHeader } from './parameters';
import { type AuthKind, errorResponses, type SharedComponents } from './problem-schemas';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Example {
  summary: string;
  value: unknown;
}

export interface ResponseSpec {
  description: string;
  /** A named valibot schema (written as its component's `$ref`), or a literal JSON Schema. */
  schema?: v.GenericSchema | Schema;
  contentType?: string;
  examples?: Record<string, Example>;
  headers?: Record<string, Schema>;
}

export interface OperationSpec {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthKind;
  /**
   * The least operator role an `operator` operation needs (docs/contract.md, Operators and the audit
   * trail): the router enforces it before the handler runs, and an operator operation without one
   * cannot be routed.
   */
  role?: Role;
  /**
   * Off in production: answers 404 NOT_FOUND there like any unknown route (docs/contract.md, Environments and
   * configuration).
   */
  stagingOnly?: boolean;
  /** Accepts X-Idempotency-Key (docs/contract.md, Idempotency). */
  idempotent?: boolean;
  parameters?: Schema[];
  /**
   * The query's values, validated like a body by the route's pipeline (each parameter once, as
   * text); `parameters` documents the same entries.
   */
  query?: v.GenericSchema;
  /** Query parameters it does not document are not refused (see refusesUnknownQuery). */
  openQuery?: true;
  body?: { schema: v.GenericSchema; required?: boolean; examples: Record<string, Example> };
  success: Record<string, ResponseSpec>;
  errors?: ErrorCode[];
}

const SECURITY: Record<AuthKind, Schema[]> = {
  none: [],
  client: [{ bearerAuth: [], applicationToken: [] }],
  signed: [{ bearerAuth: [], applicationToken: [], digitalSignature: [] }],
  operator: [{ operatorToken: [] }],
  partner: [{ partnerMutualTls: [] }],
  // The secret travels in the path, which OpenAPI security schemes cannot name.
  partnerSecret: [],
};

const IMPLIED_ERRORS: Record<AuthKind, ErrorCode[]> = {
  none: [],
  // Every authenticated client request spends the client's request budget (src/http/rate-limit.ts).
  client: ['RATE_LIMITED'],
  signed: [
    'RATE_LIMITED',
    'DIGITAL_SIGNATURE_REQUIRED',
    'DIGITAL_SIGNATURE_INVALID',
    'CRYPTO_TOKEN_NOT_CONFIGURED',
  ],
  operator: ['UNAUTHORIZED', 'FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  partner: ['UNAUTHORIZED'],
  partnerSecret: ['UNAUTHORIZED'],
};

const STAGING_NOTE = '**Staging only**: with `ENVIRONMENT=production` this route answers 404 `NOT_FOUND`.';

function response(spec: ResponseSpec, replayable: boolean): Schema {
  const headers = { ...spec.headers, ...(replayable && replayedHeader) };
  return {
    description: spec.description,
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(spec.schema !== undefined && {
      content: {
        [spec.contentType ?? 'application/json']: {
          schema: isValibotSchema(spec.schema) ? ref(spec.schema) : spec.schema,
          ...(spec.examples && { examples: spec.examples }),
        },
      },
    }),
  };
}

/** The valibot schemas an operation names: its body's and its responses'. */
export function schemasOf(spec: OperationSpec): v.GenericSchema[] {
  const responses = Object.values(spec.success).map((r) => r.schema);
  return [spec.body?.schema, ...responses].filter(isValibotSchema);
}

/**
 * Query parameters are refused by name unless the operation documents them, like unknown body fields
 * (400 VALIDATION_ERROR): a misspelt filter silently ignored answers every row while the caller
 * believes it filtered. Not for a bank's callbacks nor the BR Code location (`openQuery`): a partner
 * or a payer's bank calls those, never an integrator, and what they add to a URL is theirs.
 */
export function refusesUnknownQuery(spec: OperationSpec): boolean {
  return spec.auth !== 'partner' && spec.auth !== 'partnerSecret' && !spec.openQuery;
}

/** The error codes an operation can answer, implied ones included (the `code` enum per status). */
export function operationErrors(spec: OperationSpec): ErrorCode[] {
  return [
    ...(spec.errors ?? []),
    ...(refusesUnknownQuery(spec) ? (['VALIDATION_ERROR'] as const) : []),
    ...IMPLIED_ERRORS[spec.auth],
    ...(spec.idempotent
      ? (['IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'] as const)
      : []),
    ...(spec.stagingOnly ? (['NOT_FOUND'] as const) : []),
    'INTERNAL_ERROR',
  ];
}

export function operationObject(spec: OperationSpec, shared: SharedComponents): Schema {
  const roleNote =
    spec.role && `**Role**: \`${spec.role}\` or above; a lesser role answers 403 \`FORBIDDEN\`.`;
  const description = [spec.description, roleNote, spec.stagingOnly && STAGING_NOTE]
    .filter(Boolean)
    .join('\n\n');
  const parameters = [...(spec.parameters ?? []), ...(spec.idempotent ? [idempotencyKeyParameter] : [])];
  const success = Object.fromEntries(
    Object.entries(spec.success).map(([status, r]) => [status, response(r, !!spec.idempotent)]),
  );
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(description && { description }),
    tags: [spec.tag],
    security: SECURITY[spec.auth],
    ...(spec.role && { 'x-role': spec.role }),
    ...(parameters.length > 0 && { parameters }),
    ...(spec.body && {
      requestBody: {
        required: spec.body.required ?? true,
        content: { 'application/json': { schema: ref(spec.body.schema), examples: spec.body.examples } },
      },
    }),
    responses: { ...success, ...errorResponses(shared, spec.auth, operationErrors(spec)) },
  };
}
