/**
 * The fields of a transaction's view that never change once it is written: its ids, amount, declared
 * payer and request time. A stored idempotent answer is rebuilt from them (durable-objects/ledger/ledger/idempotency.ts),
 * so it keeps only what the transaction's later life changes (status, BR Code, refund ids) beside them.
 */
import { type CashInRecord, cashInView } from './cash-in';
import { type CashOutRecord, cashOutView } from './cash-out';

export type FixedKind = 'cash-in' | 'cash-out';

const FIXED = [
  'transactionId',
  'internalCode',
  'externalReference',
  'amount',
  'payer',
  'requestedAt',
] as const;

/** Those fields of the view, as the view shows them (the same builder as GET and events). */
export function fixedFields(kind: FixedKind, row: CashInRecord | CashOutRecord): Record<string, unknown> {
  const view: Record<string, unknown> =
    kind === 'cash-in' ? cashInView(row as CashInRecord) : cashOutView(row as CashOutRecord);
  const fixed: Record<string, unknown> = {};
  for (const key of FIXED) if (key in view) fixed[key] = view[key];
  // A Cash-In's payer as declared; the view adds the paying bank's data once paid.
  if ('payerName' in row) fixed.payer = { name: row.payerName, document: row.payerDocument };
  return fixed;
}

/** What an idempotent answer about this transaction is stored with (durable-objects/ledger/ledger/idempotency.ts). */
export function answerAbout(kind: FixedKind, row: CashInRecord | CashOutRecord, context?: string) {
  return {
    kind,
    internalCode: row.internalCode,
    fixed: fixedFields(kind, row),
    ...(context !== undefined && { context }),
  };
}
