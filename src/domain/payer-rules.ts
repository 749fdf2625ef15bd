/**
 * Whether a client takes a payment from the account that paid it (docs/contract.md, Who paid):
 * `blockedPayerDocuments` and `payerPolicy` judge the paying account's document, never the one
 * the client declared. Under DECLARED_PAYER only the declared payer's own account may pay, and a
 * payment reported without a payer document is not allowed.
 */
import { normalizeDocument } from './documents';

export const PAYER_POLICIES = ['ANY', 'DECLARED_PAYER'] as const;
export type PayerPolicy = (typeof PAYER_POLICIES)[number];

export interface PayerRules {
  payerPolicy: PayerPolicy;
  blockedPayerDocuments: readonly string[];
}

export const NO_PAYER_RULES: PayerRules = { payerPolicy: 'ANY', blockedPayerDocuments: [] };

/** The verdict on a payment from `paidDocument` (undefined: the partner did not say) of a charge declared for `declaredDocument`. */
export function payerAllowed(
  rules: PayerRules,
  declaredDocument: string,
  paidDocument: string | undefined,
): boolean {
  const paid = paidDocument === undefined ? undefined : normalizeDocument(paidDocument);
  if (paid !== undefined && rules.blockedPayerDocuments.some((d) => normalizeDocument(d) === paid))
    return false;
  if (rules.payerPolicy === 'ANY') return true;
  // A CPF (11 characters) never equals a CNPJ (14), so equal text is the same holder.
  return paid !== undefined && paid === normalizeDocument(declaredDocument);
}
