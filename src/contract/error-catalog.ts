/**
 * The one table from the error codes (src/domain/error-codes.ts) to what the HTTP contract answers:
 * status and stable English title. Every error leaves the gateway through `problem()`
 * (src/http/problem.ts) with one of these codes, and the document lists them from here (the
 * ApplicationToken 401s are the documented exception without a code).
 */
import type { ErrorCode } from '../domain/error-codes';

export const ERROR_CATALOG = {
  VALIDATION_ERROR: { status: 400, title: 'Request validation failed' },
  IDEMPOTENCY_KEY_INVALID: { status: 400, title: 'Invalid idempotency key' },
  UNAUTHORIZED: { status: 401, title: 'Unauthorized' },
  FORBIDDEN: { status: 403, title: 'Forbidden for this role' },
  DIGITAL_SIGNATURE_REQUIRED: { status: 401, title: 'DigitalSignature header is required' },
  DIGITAL_SIGNATURE_INVALID: { status: 401, title: 'DigitalSignature does not match' },
  CRYPTO_TOKEN_NOT_CONFIGURED: { status: 403, title: 'No active CryptoToken for this client' },
  NOT_FOUND: { status: 404, title: 'Resource not found' },
  CASHIN_NOT_FOUND: { status: 404, title: 'Cash-In not found' },
  CASHOUT_NOT_FOUND: { status: 404, title: 'Cash-Out not found' },
  RECURRENCE_NOT_FOUND: { status: 404, title: 'Recurrence not found' },
  ACCOUNT_NOT_FOUND: { status: 404, title: 'Account not found' },
  CLIENT_NOT_FOUND: { status: 404, title: 'Client not found' },
  PIX_INCIDENT_NOT_FOUND: { status: 404, title: 'PIX incident not found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  DUPLICATED_EXTERNAL_REFERENCE: { status: 409, title: 'externalReference already used' },
  IDEMPOTENCY_KEY_IN_PROGRESS: { status: 409, title: 'A request with this idempotency key is in progress' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Idempotency key reused with a different body' },
  REFUND_NOT_ALLOWED: { status: 422, title: 'Refund not allowed' },
  MISSING_E2E: { status: 422, title: 'Payment endToEndId not yet available' },
  RULE_VIOLATION: { status: 422, title: 'Business rule violation' },
  INSUFFICIENT_PROPRIETARY_FUNDS: { status: 422, title: 'Insufficient funds in the PROPRIETARY account' },
  INSUFFICIENT_TRANSACTIONAL_FUNDS: { status: 422, title: 'Insufficient funds in the TRANSACTIONAL account' },
  RETROACTIVE_BALANCE_NOT_IMPLEMENTED: { status: 422, title: 'Historical balance unavailable' },
  INVALID_AMOUNT: { status: 422, title: 'Amount must be greater than zero' },
  LIST_ORDER_MISMATCH: { status: 422, title: 'order differs from the cursor' },
  LIST_FROM_BEFORE_CUTOFF: { status: 422, title: 'from is earlier than the first available date' },
  'invalid-window': { status: 422, title: 'Invalid window' },
  'invalid-status': { status: 422, title: 'Invalid status' },
  'invalid-page': { status: 422, title: 'Invalid page' },
  'invalid-page-size': { status: 422, title: 'Invalid page size' },
  'invalid-incident-id': { status: 422, title: 'Invalid incident id' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  INTERNAL_ERROR: { status: 500, title: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable' },
  PIX_HEALTH_UNAVAILABLE: { status: 503, title: 'PIX health unavailable' },
} as const satisfies Record<ErrorCode, { status: number; title: string }>;

/** Media type of every Problem Details body (RFC 7807). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
