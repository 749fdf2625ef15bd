/**
 * The request pipeline an operation's declaration runs before its handler, in the order of
 * docs/contract.md, Authentication: the caller (`auth`), the query's parameter names (only those the
 * operation documents), the X-Idempotency-Key (`idempotent`), the body read through its size limit
 * and validated by its schema (`body`), then the DigitalSignature (`auth: 'signed'`). The handler
 * receives what those steps produced, typed from the declaration, and never repeats one.
 */
import type * as v from 'valibot';
import { type OperationSpec, refusesUnknownQuery } from '../openapi/operation';
import { authenticate, type Principal, requireDigitalSignature } from './auth';
import { readJsonObject, readOptionalJsonObject } from './body';
import { ProblemError } from './errors';
import { idempotencyKeyOf } from './idempotency';
import type { ApiRequest, RequestContext } from './request-context';
import { parseWith, resembles, validationError } from './validation';

interface Common {
  request: ApiRequest;
  rc: RequestContext;
  env: Env;
}

/** What a handler needs from the pipeline: the caller, the idempotency key, the validated body. */
export interface Needs {
  principal?: true;
  idempotent?: true;
  body?: v.GenericSchema;
  query?: v.GenericSchema;
}

/** What a handler receives: the request, and each step's product it needs. */
export type Input<N extends Needs = Record<never, never>> = Common &
  (N extends { principal: true } ? { principal: Principal } : unknown) &
  (N extends { idempotent: true } ? { idempotencyKey: string | undefined } : unknown) &
  (N extends { body: infer B extends v.GenericSchema }
    ? { raw: Record<string, unknown>; body: v.InferOutput<B> }
    : unknown) &
  (N extends { query: infer Q extends v.GenericSchema } ? { query: v.InferOutput<Q> } : unknown);

/** The needs an operation's declaration implies. */
type NeedsOf<S extends OperationSpec> = Needs &
  (S extends { auth: 'client' | 'signed' } ? { principal: true } : unknown) &
  (S extends { idempotent: true } ? { idempotent: true } : unknown) &
  (S extends { body: { schema: infer B extends v.GenericSchema } } ? { body: B } : unknown) &
  (S extends { query: infer Q extends v.GenericSchema } ? { query: Q } : unknown);

export type InputOf<S extends OperationSpec> = Input<NeedsOf<S>>;
export type TypedHandler<S extends OperationSpec> = (input: InputOf<S>) => Promise<Response> | Response;

/** What a declaration cannot say by itself. */
export interface Pipeline<S extends OperationSpec> {
  /** Runs before every step: a staging-only operation answers 404 outside staging (src/http/staging.ts). */
  before?: (request: ApiRequest, env: Env) => void;
  /** A larger cap for a body that is a list (a batch). */
  maxBodyBytes?: number;
  /** Renames a field of the body's validation errors (a batch item's `items.3.x` → `items[3].x`). */
  fieldName?: (field: string) => string;
  /** The body's schema when it depends on the deployment (the declaration's is what the document shows). */
  bodySchema?: (env: Env) => v.GenericSchema;
  /** Rules on the valid body that need the environment; they run before the signature is checked. */
  check?: (input: InputOf<S>) => void;
}

const queryNames = (spec: OperationSpec) =>
  (spec.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name as string);

function checkQueryNames(request: ApiRequest, known: readonly string[]): void {
  const errors: Record<string, string[]> = {};
  for (const name of Object.keys(request.query)) {
    if (known.includes(name)) continue;
    const close = known.find((k) => resembles(k, name));
    errors[name] = [
      `${name} is not a query parameter of this operation${close ? ` (did you mean ${close}?)` : ''}`,
    ];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors, 'Invalid query parameters');
}

/**
 * The route's handler as the router calls it. `mode: 'handler'` is for a bank's callbacks, which
 * authenticate and read their bodies themselves: only the query's names are checked for them.
 */
export function pipeline<S extends OperationSpec>(
  spec: S,
  handler: TypedHandler<S>,
  steps: Pipeline<S>,
  mode: 'declaration' | 'handler' = 'declaration',
): (request: ApiRequest, rc: RequestContext) => Promise<Response> {
  const known = queryNames(spec);
  const strict = refusesUnknownQuery(spec);
  const own = mode === 'declaration';
  return async (request, rc) => {
    const { env } = rc;
    const input: Record<string, unknown> = { request, rc, env };
    steps.before?.(request, env);
    let principal: Principal | undefined;
    if (own && (spec.auth === 'client' || spec.auth === 'signed')) {
      principal = await authenticate(request, env);
      input.principal = principal;
    }
    if (strict) checkQueryNames(request, known);
    if (spec.query) input.query = parseWith(spec.query, { ...request.query });
    if (own && spec.idempotent) input.idempotencyKey = idempotencyKeyOf(request);
    if (own && spec.body) {
      const raw =
        spec.body.required === false
          ? await readOptionalJsonObject(request)
          : await readJsonObject(request, steps.maxBodyBytes);
      input.raw = raw;
      input.body = parseBody(steps.bodySchema?.(env) ?? spec.body.schema, raw, steps.fieldName);
    }
    const typed = input as InputOf<S>;
    steps.check?.(typed);
    if (own && spec.auth === 'signed' && principal) await requireDigitalSignature(request, principal);
    return handler(typed);
  };
}

function parseBody(schema: v.GenericSchema, raw: unknown, fieldName?: (field: string) => string): unknown {
  if (!fieldName) return parseWith(schema, raw);
  try {
    return parseWith(schema, raw);
  } catch (error) {
    const errors =
      error instanceof ProblemError
        ? (error.extras.errors as Record<string, string[]> | undefined)
        : undefined;
    if (!errors) throw error;
    const renamed = Object.fromEntries(
      Object.entries(errors).map(([field, list]) => [fieldName(field), list]),
    );
    throw validationError(renamed, (error as ProblemError).detail);
  }
}
