/**
 * A transaction kind's field table (src/domain/cash-in.ts CASH_IN_FIELDS, cash-out.ts
 * CASH_OUT_FIELDS) compiled to a SQLite expression over a row of its table, yielding the very JSON
 * text `JSON.stringify(view(row))` gives: reads hand that text on (GET by id, list pages)
 * instead of building objects in the ledger, cloning them across the RPC and serializing them in
 * the Worker. Same keys in the same order, same omissions; strings through json_quote (it escapes
 * exactly what JSON.stringify does), amounts and BRT times printed from integers (no floating
 * point), stored JSON columns (bank data, destination) embedded as written (drizzle wrote them with
 * JSON.stringify). Nothing here names a field: each condition and value kind of
 * src/domain/view-fields.ts has its one SQL form below, and no table either: each store compiles
 * its kind's view over its own table (cash-in-store.ts CASH_IN_JSON, cash-out-store.ts
 * CASH_OUT_JSON) and holds the statements that render it. test/storage/view-sql.test.ts (any row)
 * and test/api/view-agreement.test.ts (rows real operations wrote) pin the equality.
 */
import { getTableColumns, type Table } from 'drizzle-orm';
import { FAILURE_MESSAGES } from '../../../src/domain/failure-codes';
import type { Condition, Value, ViewField } from '../../../src/domain/view-fields';

/** A SQL string literal. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

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

type Columns = (key: string) => string;

/** The table's SQL column name for each record key (drizzle's own mapping, so they cannot drift). */
function columnsOf(table: Table): Columns {
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  return (key) => {
    const column = columns[key];
    if (!column) throw new Error(`view field reads ${key}, which is not a column`);
    return column.name;
  };
}

function condition(c: Condition<unknown>, col: Columns): string {
  switch (c.op) {
    case 'status':
      return `${col('status')} IN (${c.in.map(literal).join(', ')})`;
    case 'is':
      return `${col(c.column)} = ${literal(c.value)}`;
    case 'filled':
      return `coalesce(${col(c.column)}, '') <> ''`;
    case 'set':
      return `${col(c.column)} IS NOT NULL`;
    case 'stored':
      return `(${col(c.column)} IS NOT NULL AND ${col(c.column)} <> 'null')`;
    case 'all':
      return `(${c.of.map((part) => condition(part, col)).join(' AND ')})`;
  }
}

function value(v: Value<unknown>, col: Columns): string {
  switch (v.kind) {
    case 'text':
      return `json_quote(${col(v.column)})`;
    case 'money':
      return amount(col(v.column));
    case 'brt':
      return brt(col(v.column));
    case 'json':
      return col(v.column);
    case 'failure':
      return failure(col(v.column));
    case 'object':
      return object(v.fields, col);
  }
}

/**
 * `{…}` as SQL text: each field as `,"key":value` (the first without its comma, so it must always
 * be present), an optional one inside a CASE that yields '' when none of its cases holds.
 */
function object(fields: readonly ViewField<unknown>[], col: Columns): string {
  const [first, ...rest] = fields;
  const opening = first?.cases[0];
  if (!first || first.optional || !opening)
    throw new Error('a view opens with a field that is always present');
  const entries = rest.map((f) => {
    const text = (c: { value: Value<unknown> }) =>
      `${literal(`,${JSON.stringify(f.key)}:`)} || ${value(c.value, col)}`;
    if (!f.optional) return text(f.cases[0] as { value: Value<unknown> });
    const cases = f.cases.map((c) => `WHEN ${c.when ? condition(c.when, col) : '1'} THEN ${text(c)}`);
    return `CASE ${cases.join(' ')} ELSE '' END`;
  });
  return `(${literal(`{${JSON.stringify(first.key)}:`)} || ${[value(opening.value, col), ...entries, "'}'"].join(' || ')})`;
}

/** A view as JSON text over the columns of `table`, from the kind's field table. */
export function viewJson(fields: readonly ViewField<unknown>[], table: Table): string {
  return object(fields, columnsOf(table));
}
