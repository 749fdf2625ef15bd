/**
 * The closed union of the gateway's error codes (docs/contract.md, Errors): every refusal a rule can
 * make names one of these. Their HTTP status and English title are the edge's business, in one
 * table: src/contract/error-catalog.ts.
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'IDEMPOTENCY_KEY_INVALID',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'DIGITAL_SIGNATURE_REQUIRED',
  'DIGITAL_SIGNATURE_INVALID',
  'CRYPTO_TOKEN_NOT_CONFIGURED',
  'NOT_FOUND',
  'CASHIN_NOT_FOUND',
  'CASHOUT_NOT_FOUND',
  'RECURRENCE_NOT_FOUND',
  'ACCOUNT_NOT_FOUND',
  'CLIENT_NOT_FOUND',
  'PIX_INCIDENT_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'DUPLICATED_EXTERNAL_REFERENCE',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'REFUND_NOT_ALLOWED',
  'MISSING_E2E',
  'RULE_VIOLATION',
  'INSUFFICIENT_PROPRIETARY_FUNDS',
  'INSUFFICIENT_TRANSACTIONAL_FUNDS',
  'RETROACTIVE_BALANCE_NOT_IMPLEMENTED',
  'INVALID_AMOUNT',
  'LIST_ORDER_MISMATCH',
  'LIST_FROM_BEFORE_CUTOFF',
  'invalid-window',
  'invalid-status',
  'invalid-page',
  'invalid-page-size',
  'invalid-incident-id',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'PIX_HEALTH_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Serializable form of a problem that crosses the Durable Object RPC boundary. */
export interface ProblemShape {
  code: ErrorCode;
  detail?: string;
  errors?: Record<string, string[]>;
}
