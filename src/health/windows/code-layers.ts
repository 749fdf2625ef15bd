// The layer each code of the failure catalog (its one home: src/domain/failure-codes.ts) points at, used
// to confirm an attribution.

import { FAILURE_CODES, type FailureCode } from '../../domain/failure-codes';
import { present } from '../../domain/present';

export const FAILURE_CODE_COUNT = FAILURE_CODES.length;

/**
 * Which layer a code blames. PLATFORM = our own processing; PARTNER = the settlement partner reports
 * itself down; INSTITUTION = the payee's bank; MERCHANT = the client's own limits/balance/approvals;
 * END_USER = data typed by the client's users (keys, documents), normal background noise.
 */
export type CodeLayer = 'PLATFORM' | 'PARTNER' | 'INSTITUTION' | 'MERCHANT' | 'END_USER';

const LAYER: Record<FailureCode, CodeLayer> = {
  PROCESSING_ERROR: 'PLATFORM',
  PROVIDER_UNAVAILABLE: 'PARTNER',
  PAYEE_BANK_UNAVAILABLE: 'INSTITUTION',
  PAYEE_BANK_REJECTED: 'INSTITUTION',
  PAYEE_ACCOUNT_UNAVAILABLE: 'INSTITUTION',
  INSUFFICIENT_FUNDS: 'MERCHANT',
  AMOUNT_ABOVE_MAXIMUM: 'MERCHANT',
  DAILY_LIMIT_EXCEEDED: 'MERCHANT',
  PERIOD_LIMIT_EXCEEDED: 'MERCHANT',
  PAYEE_LIMIT_EXCEEDED: 'MERCHANT',
  APPROVAL_REJECTED: 'MERCHANT',
  DUPLICATED_TRANSFER: 'MERCHANT',
  PIX_KEY_NOT_FOUND: 'END_USER',
  PIX_KEY_INVALID: 'END_USER',
  PAYEE_DOCUMENT_MISMATCH: 'END_USER',
  PAYEE_ACCOUNT_INVALID: 'END_USER',
  PAYEE_NOT_ALLOWED: 'END_USER',
  FRAUD_SUSPECTED: 'END_USER',
};

const INDEX = new Map<string, number>(FAILURE_CODES.map((c, i) => [c, i]));
const PROCESSING_ERROR_INDEX = present(INDEX.get('PROCESSING_ERROR'), 'PROCESSING_ERROR');

/**
 * Index in FAILURE_CODES; an unknown or missing code counts as PROCESSING_ERROR (docs/contract.md, Cash-Out
 * lifecycle).
 */
export function failureCodeIndex(code: string | undefined): number {
  return code === undefined ? PROCESSING_ERROR_INDEX : (INDEX.get(code) ?? PROCESSING_ERROR_INDEX);
}

export function codeLayer(index: number): CodeLayer {
  return LAYER[FAILURE_CODES[index] ?? 'PROCESSING_ERROR'];
}

export interface CodeExcess {
  index: number;
  layer: CodeLayer;
}

/** The failure code with the largest excess over its own baseline share in this window. */
export function dominantCode(
  codes: readonly number[],
  codeEw: readonly number[],
  codeEwN: number,
  outcomes: number,
): CodeExcess | null {
  let best = -1;
  let bestExcess = 0;
  for (let k = 0; k < codes.length; k++) {
    const p = codeEwN > 0 ? (codeEw[k] ?? 0) / codeEwN : 0;
    const excess = (codes[k] ?? 0) - outcomes * p;
    if (excess > bestExcess) {
      best = k;
      bestExcess = excess;
    }
  }
  return best < 0 ? null : { index: best, layer: codeLayer(best) };
}
