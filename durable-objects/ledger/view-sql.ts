/**
 * The Cash-In and Cash-Out views (src/domain/cash-in.ts cashInView, cash-out.ts cashOutView) as
 * SQLite expressions over a row of cash_ins / cash_outs, yielding the very JSON text
 * `JSON.stringify(view(row))` gives: reads hand that text on (GET by id, list pages) instead of
 * building objects in the ledger, cloning them across the RPC and serializing them in the Worker.
 * Same keys in the same order, same omissions; strings through json_quote (it escapes exactly what
 * JSON.stringify does), amounts and BRT times printed from integers (no floating point), stored
 * JSON columns (bank data, destination) embedded as written (drizzle wrote them with
 * JSON.stringify). test/api/cash-in/happy-read-bytes.test.ts and test/storage/view-sql.test.ts pin
 * the equality; a change to a view must be made in both places.
 */
import { FAILURE_MESSAGES } from '../../src/domain/failure-codes';

/** A SQL string literal. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
/** `,"key":` as SQL text, then a JSON value expression. */
const field = (key: string, value: string) => `${literal(`,${JSON.stringify(key)}:`)} || ${value}`;
/** The field only when `condition` holds. */
const optional = (condition: string, key: string, value: string) =>
  `CASE WHEN ${condition} THEN ${field(key, value)} ELSE '' END`;
/** A non-empty string (the views test strings for truthiness). */
const present = (column: string) => `coalesce(${column}, '') <> ''`;
/** A stored JSON column that holds an object (drizzle reads SQL NULL and 'null' as null). */
const storedJson = (column: string) => `${column} IS NOT NULL AND ${column} <> 'null'`;
const quoted = (column: string) => `json_quote(${column})`;

/** amountFromCents: integer centavos printed as reais, `150`, `150.2`, `150.25`, `0.05`. */
const amount = (c: string) =>
  `(CASE WHEN ${c} < 0 THEN '-' ELSE '' END || (abs(${c}) / 100) ||
    CASE WHEN abs(${c}) % 100 = 0 THEN '' WHEN abs(${c}) % 10 = 0 THEN '.' || (abs(${c}) % 100 / 10)
    ELSE printf('.%02d', abs(${c}) % 100) END)`;

/** formatBrt: `"2026-11-20T10:00:00.007-03:00"`, from epoch milliseconds. */
const brt = (c: string) =>
  `('"' || strftime('%Y-%m-%dT%H:%M:%S', (${c} - 10800000) / 1000, 'unixepoch') ||
    printf('.%03d-03:00"', (${c} - 10800000) % 1000))`;

/** failureOf(code) as JSON text: the catalog's entry, unknown codes as PROCESSING_ERROR. */
const failure = (c: string) => {
  const text = (code: keyof typeof FAILURE_MESSAGES) =>
    literal(JSON.stringify({ code, message: FAILURE_MESSAGES[code] }));
  const cases = Object.keys(FAILURE_MESSAGES).map(
    (code) => `WHEN ${literal(code)} THEN ${text(code as keyof typeof FAILURE_MESSAGES)}`,
  );
  return `(CASE ${c} ${cases.join(' ')} ELSE ${text('PROCESSING_ERROR')} END)`;
};

/** endToEndIds: a refund's id with the original's kept, else the original's once `shown`. */
const endToEndIds = (shown: string) =>
  `CASE WHEN status = 'REFUNDED' AND ${present('refund_end_to_end_id')} THEN
     ${field('endToEndId', quoted('refund_end_to_end_id'))} ||
     ${optional(present('end_to_end_id'), 'originalEndToEndId', quoted('end_to_end_id'))}
   WHEN ${shown} AND ${present('end_to_end_id')} THEN ${field('endToEndId', quoted('end_to_end_id'))}
   ELSE '' END`;

/** The ids every view opens with (viewHead), as SQL text starting with `{`. */
const head = `'{"transactionId":' || ${quoted('transaction_id')} ||
  ${field('internalCode', quoted('internal_code'))} ||
  ${field('externalReference', quoted('external_reference'))}`;

const moneyMoved = `status IN ('PAID', 'REFUNDED')`;

/** cashInView(row) as JSON text, over the columns of cash_ins. */
export const CASH_IN_JSON = `(${head} ||
  ${endToEndIds(moneyMoved)} ||
  ${field('status', quoted('status'))} ||
  ${optional(`status = 'REFUNDED' AND ${present('reason')}`, 'reason', quoted('reason'))} ||
  ${optional(
    `status = 'PAID' AND refund_state = 'FAILED' AND ${present('refund_failure_code')}`,
    'refundFailure',
    failure('refund_failure_code'),
  )} ||
  ${field('amount', amount('amount'))} ||
  ${field('payer', `'{"name":' || ${quoted('payer_name')}`)} ||
  ${field('document', quoted('payer_document'))} ||
  ${optional(`${moneyMoved} AND ${storedJson('payer_bank')}`, 'bankData', 'payer_bank')} || '}' ||
  ${optional(`${moneyMoved} AND ${storedJson('settlement')}`, 'settlement', 'settlement')} ||
  ${field('requestedAt', brt('requested_at'))} ||
  ${optional(`${moneyMoved} AND paid_at IS NOT NULL`, 'paidAt', brt('paid_at'))} ||
  ${optional(`status = 'REFUNDED' AND refunded_at IS NOT NULL`, 'refundedAt', brt('refunded_at'))} ||
  ${optional(`status = 'CANCELLED' AND cancelled_at IS NOT NULL`, 'cancelledAt', brt('cancelled_at'))} ||
  ${field('expiredAt', brt('expires_at'))} || '}')`;

const settled = `status IN ('COMPLETED', 'REFUNDED')`;

/** cashOutView(row) as JSON text, over the columns of cash_outs (its keys in insertion order). */
export const CASH_OUT_JSON = `(${head} ||
  ${field('status', quoted('status'))} ||
  ${field('amount', amount('amount'))} ||
  ${field('payee', `'{"name":' || ${quoted('payee_name')}`)} ||
  ${field('document', quoted('payee_document'))} ||
  ${field('destination', 'destination')} ||
  ${optional(`${settled} AND ${storedJson('payee_bank')}`, 'bankData', 'payee_bank')} || '}' ||
  ${field('requestedAt', brt('requested_at'))} ||
  ${endToEndIds(`status IN ('COMPLETED', 'CANCELLED')`)} ||
  ${optional(`status = 'CANCELLED'`, 'failure', failure(`coalesce(failure_code, 'PROCESSING_ERROR')`))} ||
  ${optional(`status = 'REFUNDED' AND ${present('reason')}`, 'reason', quoted('reason'))} ||
  ${optional(`(${settled} OR status = 'CANCELLED') AND ${storedJson('settlement')}`, 'settlement', 'settlement')} ||
  ${optional(`${settled} AND completed_at IS NOT NULL`, 'completedAt', brt('completed_at'))} ||
  ${optional(`status = 'CANCELLED' AND cancelled_at IS NOT NULL`, 'cancelledAt', brt('cancelled_at'))} ||
  ${optional(`status = 'REFUNDED' AND refunded_at IS NOT NULL`, 'refundedAt', brt('refunded_at'))} || '}')`;
