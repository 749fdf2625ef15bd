/**
 * Error bodies (docs/contract.md, Errors and Authentication) as valibot schemas, and the per-operation error
 * responses built from the one catalog in src/contract/error-catalog.ts: every documented status lists exactly the codes
 * that operation can answer, with one example per code.
 */
import * as v from 'valibot';
import { ERROR_CATALOG, PROBLEM_CONTENT_TYPE } from '../contract/error-catalog';
import type { ErrorCode } from '../domain/error-codes';
import { named } from '../schemas/named';
import { ref, type Schema } from './json-schema';

const TYPE_BASE = 'https://connectpsp.com.br/problems/';

export const Problem = named(
  'Problem',
  v.pipe(
    v.object({
      type: v.pipe(v.string(), v.description('URI of the error category; may contain non-ASCII characters.')),
      title: v.pipe(v.string(), v.description('Short summary, stable across occurrences.')),
      status: v.pipe(v.number(), v.integer()),
      code: v.pipe(v.string(), v.description('Machine-readable code; handle errors on it.')),
      detail: v.optional(v.pipe(v.string(), v.description('Explanation of this occurrence.'))),
      errors: v.optional(
        v.pipe(
          v.record(v.string(), v.array(v.string())),
          v.description('Only on VALIDATION_ERROR: field (dotted path) → messages.'),
        ),
      ),
      instance: v.optional(v.pipe(v.string(), v.description('Request path; on INTERNAL_ERROR.'))),
      traceId: v.optional(v.pipe(v.string(), v.description('Only on INTERNAL_ERROR; quote it to support.'))),
    }),
    v.description('RFC 7807 Problem Details (application/problem+json).'),
  ),
);

export const ApplicationTokenProblem = named(
  'ApplicationTokenProblem',
  v.pipe(
    v.object({
      type: v.string(),
      title: v.picklist(['ApplicationToken header is missing', 'ApplicationToken is invalid']),
      status: v.literal(401),
      detail: v.pipe(v.string(), v.description('Why: missing, not a GUID, not found or inactive.')),
    }),
    v.description('The ApplicationToken 401: Problem Details without `code`.'),
  ),
);

export const problemType = (code: string) => `${TYPE_BASE}${code.toLowerCase().replace(/_/g, '-')}`;

const SAMPLE_DETAIL: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'One or more fields are invalid',
  CASHIN_NOT_FOUND: 'No Cash-In matches this id',
  CASHOUT_NOT_FOUND: 'No Cash-Out matches this id',
  RECURRENCE_NOT_FOUND: 'No recurrence matches this id',
  REFUND_NOT_ALLOWED: 'The Cash-In is not paid yet',
  DUPLICATED_EXTERNAL_REFERENCE: "externalReference 'pedido-1' was already used",
  RATE_LIMITED: 'Request budget of 20 per second exceeded; retry after 1 s',
  INTERNAL_ERROR: 'An unexpected error occurred; retry with backoff and quote the traceId to support',
};

export function problemExample(code: ErrorCode): Record<string, unknown> {
  const { status, title } = ERROR_CATALOG[code];
  return {
    type: problemType(code),
    title,
    status,
    code,
    detail: SAMPLE_DETAIL[code] ?? title,
    ...(code === 'VALIDATION_ERROR' && { errors: { amount: ['amount must be at least 0.01'] } }),
    ...(code === 'INTERNAL_ERROR' && {
      instance: '/cash-in/K7Q2M9X',
      traceId: '0b6f3a52-2f4e-4d7b-9a8e-7c1d5e3f2a10',
    }),
  };
}

const APP_TOKEN_EXAMPLES = {
  APPLICATION_TOKEN_MISSING: {
    summary: 'ApplicationToken missing (no code)',
    value: {
      type: `${TYPE_BASE}application-token-missing`,
      title: 'ApplicationToken header is missing',
      status: 401,
      detail: 'Send the ApplicationToken header issued at onboarding',
    },
  },
  APPLICATION_TOKEN_INVALID: {
    summary: 'ApplicationToken invalid (no code)',
    value: {
      type: `${TYPE_BASE}application-token-invalid`,
      title: 'ApplicationToken is invalid',
      status: 401,
      detail: 'ApplicationToken is inactive',
    },
  },
};

function store(into: Record<string, Schema>, name: string, value: Schema): void {
  const existing = into[name];
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(value)) {
    throw new Error(`two different shared components named ${name}`);
  }
  into[name] = value;
}

/** Responses and examples shared by many operations, stored once under `components`. */
export class SharedComponents {
  readonly responses: Record<string, Schema> = {};
  readonly examples: Record<string, Schema> = {};

  response(name: string, build: () => Schema): Schema {
    store(this.responses, name, build());
    return { $ref: `#/components/responses/${name}` };
  }

  example(name: string, build: () => Schema): Schema {
    store(this.examples, name, build());
    return { $ref: `#/components/examples/${name}` };
  }
}

/** Problem Details whose `code` is one of `codes`. */
function problemOf(codes: readonly ErrorCode[]): Schema {
  return { allOf: [ref(Problem), { properties: { code: { enum: [...codes] } } }] };
}

function codeExamples(shared: SharedComponents, codes: readonly ErrorCode[]) {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      shared.example(code, () => ({ summary: ERROR_CATALOG[code].title, value: problemExample(code) })),
    ]),
  );
}

function appTokenExamples(shared: SharedComponents) {
  return Object.fromEntries(
    Object.entries(APP_TOKEN_EXAMPLES).map(([name, value]) => [name, shared.example(name, () => value)]),
  );
}

/** `partner`: a partner's client certificate; `partnerSecret`: its secret path segment. */
export type AuthKind = 'client' | 'signed' | 'operator' | 'partner' | 'partnerSecret' | 'none';

const WWW_AUTHENTICATE = {
  'WWW-Authenticate': {
    description:
      'On the JWT 401 (no body): `Bearer` when no bearer token was sent, otherwise `Bearer ' +
      'error="invalid_token", error_description="..."` (an expired token says when it expired).',
    schema: { type: 'string' },
  },
};

const UNAUTHORIZED_NAME: Record<AuthKind, string> = {
  client: 'Unauthorized',
  signed: 'UnauthorizedSigned',
  operator: 'OperatorUnauthorized',
  partner: 'PartnerUnauthorized',
  partnerSecret: 'PartnerUnauthorized',
  none: 'Unauthorized',
};

function unauthorized(shared: SharedComponents, auth: AuthKind, codes: readonly ErrorCode[]): Schema {
  return shared.response(UNAUTHORIZED_NAME[auth], () => {
    if (auth === 'operator' || auth === 'partner' || auth === 'partnerSecret') {
      return {
        description:
          auth === 'operator'
            ? 'Missing or wrong operator token.'
            : "The request is not authenticated as the partner (see the operation's description).",
        content: {
          [PROBLEM_CONTENT_TYPE]: { schema: problemOf(codes), examples: codeExamples(shared, codes) },
        },
      };
    }
    const schema =
      codes.length > 0
        ? { anyOf: [ref(ApplicationTokenProblem), problemOf(codes)] }
        : ref(ApplicationTokenProblem);
    return {
      description: [
        'JWT missing, invalid or expired: **no body**, the reason is in `WWW-Authenticate`.',
        'ApplicationToken missing, not a GUID, not found or inactive: Problem Details **without `code`**.',
        ...(codes.length > 0
          ? [`DigitalSignature: Problem Details with code ${codes.map((c) => `\`${c}\``).join(', ')}.`]
          : []),
      ].join('\n\n'),
      headers: WWW_AUTHENTICATE,
      content: {
        [PROBLEM_CONTENT_TYPE]: {
          schema,
          examples: { ...appTokenExamples(shared), ...codeExamples(shared, codes) },
        },
      },
    };
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request.',
  403: 'Forbidden.',
  404: 'Not found.',
  409: 'Conflict.',
  422: 'Business rule violation.',
  429: "Over the client's request budget (`rateLimitPerSecond`, set by the operator); wait `Retry-After` seconds.",
  500: 'Unexpected error; retry with backoff and quote `traceId` to support.',
  503: 'Unavailable.',
};

/** PascalCase of a code: the name of a response shared by every operation answering only it. */
const responseName = (code: string) =>
  code
    .toLowerCase()
    .split(/[_-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

function problemResponse(shared: SharedComponents, status: number, codes: ErrorCode[]): Schema {
  const build = () => ({
    description: `${STATUS_TEXT[status] ?? 'Error.'} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    ...(codes.includes('PIX_HEALTH_UNAVAILABLE') && {
      headers: { 'Retry-After': { description: 'Seconds to wait: 60.', schema: { type: 'integer' } } },
    }),
    ...(codes.includes('RATE_LIMITED') && {
      headers: {
        'Retry-After': {
          description: 'Whole seconds (at least 1) until the budget admits a request again.',
          schema: { type: 'integer', minimum: 1 },
        },
      },
    }),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: problemOf(codes), examples: codeExamples(shared, codes) } },
  });
  return codes.length === 1 ? shared.response(responseName(codes[0] as string), build) : build();
}

/** The error responses of one operation, keyed by status, for the given codes. */
export function errorResponses(
  shared: SharedComponents,
  auth: AuthKind,
  codes: readonly ErrorCode[],
): Record<string, Schema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = ERROR_CATALOG[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Schema> = {};
  if (auth !== 'none') responses['401'] = unauthorized(shared, auth, byStatus.get(401) ?? []);
  for (const [status, list] of byStatus) {
    if (status !== 401 || auth === 'none') responses[String(status)] = problemResponse(shared, status, list);
  }
  return responses;
}
