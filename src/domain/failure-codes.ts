/**
 * The Cash-Out failure catalog (OpenAPI: Cash-Out `failure.code`): 18 codes, each with its fixed English
 * message. The message is for operators and must not be parsed; an unknown code is read as PROCESSING_ERROR.
 */
export const FAILURE_MESSAGES = {
  PROVIDER_UNAVAILABLE: 'The settlement provider is unavailable. Retry later with a new request.',
  PIX_KEY_NOT_FOUND: 'The PIX key was not found in the directory.',
  PIX_KEY_INVALID: 'The PIX key is not valid for its type.',
  PAYEE_DOCUMENT_MISMATCH: 'The payee document does not match the PIX key or account holder.',
  PAYEE_ACCOUNT_INVALID: 'The payee account data is invalid.',
  PAYEE_ACCOUNT_UNAVAILABLE: 'The payee account is closed, blocked or cannot receive transfers.',
  PAYEE_BANK_UNAVAILABLE: "The payee's institution is unavailable. Retry later with a new request.",
  PAYEE_BANK_REJECTED: "The payee's institution rejected the transfer.",
  FRAUD_SUSPECTED: 'The transfer was blocked by fraud prevention.',
  INSUFFICIENT_FUNDS: 'The TRANSACTIONAL balance was not enough for this transfer.',
  AMOUNT_ABOVE_MAXIMUM: 'The amount is above the maximum allowed per transfer.',
  DAILY_LIMIT_EXCEEDED: 'The daily withdrawal limit would be exceeded.',
  PERIOD_LIMIT_EXCEEDED: 'The withdrawal limit for the period would be exceeded.',
  PAYEE_LIMIT_EXCEEDED: 'The daily limit for this payee would be exceeded.',
  PAYEE_NOT_ALLOWED: 'The payee is not allowed to receive from this client.',
  DUPLICATED_TRANSFER: 'An identical transfer was sent moments ago.',
  APPROVAL_REJECTED: 'The transfer was rejected during approval.',
  PROCESSING_ERROR: 'The transfer could not be processed.',
} as const;

export type FailureCode = keyof typeof FAILURE_MESSAGES;
export const FAILURE_CODES = Object.keys(FAILURE_MESSAGES) as FailureCode[];

export function normalizeFailureCode(code: string): FailureCode {
  return Object.hasOwn(FAILURE_MESSAGES, code) ? (code as FailureCode) : 'PROCESSING_ERROR'; // not `in`: 'toString' is no code
}

export function failureOf(code: string): { code: FailureCode; message: string } {
  const normalized = normalizeFailureCode(code);
  return { code: normalized, message: FAILURE_MESSAGES[normalized] };
}
