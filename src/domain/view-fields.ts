/**
 * A transaction view as data: one field table per kind (./cash-in.ts CASH_IN_FIELDS, ./cash-out.ts
 * CASH_OUT_FIELDS) lists each key in output order, when it appears and what it shows. Everything
 * that shows a view comes from that table, so a field is added or changed in one place:
 * `renderView` builds the object here (events, write responses, archived rows), the ledger compiles
 * the same table to SQLite (durable-objects/ledger/reads/view-sql.ts, hot reads hand on its JSON text),
 * and the response schema takes the names, optionality and nesting from it
 * (src/openapi/view-schema.ts). Conditions and values are a closed vocabulary because each must
 * mean the same in both languages; add a kind here and in view-sql.ts together.
 */
import { type FailureCode, failureOf } from './failure-codes';
import { amountFromCents } from './money';
import { formatBrt } from './time';

type Column<R> = keyof R & string;

/** When a field (or one of its cases) appears. */
export type Condition<R> =
  | { readonly op: 'status'; readonly in: readonly string[] }
  | { readonly op: 'is'; readonly column: Column<R>; readonly value: string }
  /** A non-empty string (the views test strings for truthiness). */
  | { readonly op: 'filled'; readonly column: Column<R> }
  /** A time that is set. */
  | { readonly op: 'set'; readonly column: Column<R> }
  /** A stored JSON object (drizzle reads SQL NULL and the text 'null' as null). */
  | { readonly op: 'stored'; readonly column: Column<R> }
  | { readonly op: 'all'; readonly of: readonly Condition<R>[] };

declare const shows: unique symbol;
declare const nests: unique symbol;

/** What a field shows; `T` is its type in the view (type-level only). */
export type Value<R, T = unknown> = (
  | { readonly kind: 'text'; readonly column: Column<R> }
  /** Integer centavos shown as reais (amountFromCents). */
  | { readonly kind: 'money'; readonly column: Column<R> }
  /** Epoch milliseconds shown in Brasília time (formatBrt). */
  | { readonly kind: 'brt'; readonly column: Column<R> }
  /** A stored JSON object shown as written (bank data, destination). */
  | { readonly kind: 'json'; readonly column: Column<R> }
  /** A failure code shown as its catalog entry; absent or unknown codes as PROCESSING_ERROR. */
  | { readonly kind: 'failure'; readonly column: Column<R> }
  | { readonly kind: 'object'; readonly fields: readonly ViewField<R>[] }
) & { readonly [shows]?: T };

export interface Case<R> {
  readonly when?: Condition<R>;
  readonly value: Value<R>;
}

/**
 * One key of a view: the first case whose condition holds gives its value; none, and the key is
 * absent. `O` says whether it may be absent, `S` is a nested object's own table.
 */
export interface ViewField<
  R,
  K extends string = string,
  T = unknown,
  O extends boolean = boolean,
  S = unknown,
> {
  readonly key: K;
  readonly cases: readonly Case<R>[];
  readonly optional: O;
  readonly [shows]?: T;
  readonly [nests]?: S;
}

// biome-ignore lint/suspicious/noExplicitAny: any record, for tables as type arguments
export type AnyField = ViewField<any, string, unknown, boolean, unknown>;
/** The type a field or value shows in the view. */
export type FieldType<F> = F extends { readonly [shows]?: infer T } ? T : never;
/** A nested object's own table (unknown for other fields). */
export type SubFields<F> = F extends { readonly [nests]?: infer S } ? S : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The view object a field table describes. */
export type ViewOf<Fs extends readonly AnyField[]> = Simplify<
  { [F in Fs[number] as F['optional'] extends false ? F['key'] : never]: FieldType<F> } & {
    [F in Fs[number] as F['optional'] extends true ? F['key'] : never]?: FieldType<F>;
  }
>;

type ObjectValue<R, Fs extends readonly ViewField<R>[]> = Value<R, ViewOf<Fs>> & { readonly [nests]?: Fs };

/** The builders of a table over records `R`, typed so that a column must exist in `R`. */
export function fieldsOf<R>() {
  return {
    statusIn: (...statuses: R extends { status: infer S } ? S[] : never): Condition<R> => ({
      op: 'status',
      in: statuses as string[],
    }),
    is: (column: Column<R>, value: string): Condition<R> => ({ op: 'is', column, value }),
    filled: (column: Column<R>): Condition<R> => ({ op: 'filled', column }),
    set: (column: Column<R>): Condition<R> => ({ op: 'set', column }),
    stored: (column: Column<R>): Condition<R> => ({ op: 'stored', column }),
    all: (...of: Condition<R>[]): Condition<R> => ({ op: 'all', of }),

    text: <C extends Column<R>>(column: C) => ({ kind: 'text', column }) as Value<R, NonNullable<R[C]>>,
    money: (column: Column<R>) => ({ kind: 'money', column }) as Value<R, number>,
    brt: (column: Column<R>) => ({ kind: 'brt', column }) as Value<R, string>,
    json: <C extends Column<R>>(column: C) => ({ kind: 'json', column }) as Value<R, NonNullable<R[C]>>,
    failure: (column: Column<R>) =>
      ({ kind: 'failure', column }) as Value<R, { code: FailureCode; message: string }>,
    object: <const Fs extends readonly ViewField<R>[]>(...fields: Fs) =>
      ({ kind: 'object', fields }) as ObjectValue<R, Fs>,

    /** Always present. */
    always: <K extends string, V extends Value<R>>(key: K, value: V) =>
      ({ key, cases: [{ value }], optional: false }) as ViewField<R, K, FieldType<V>, false, SubFields<V>>,
    /** Present only when `when` holds. */
    when: <K extends string, V extends Value<R>>(when: Condition<R>, key: K, value: V) =>
      ({ key, cases: [{ when, value }], optional: true }) as ViewField<
        R,
        K,
        FieldType<V>,
        true,
        SubFields<V>
      >,
    /** The first case that holds, else absent. */
    firstOf: <K extends string, V extends Value<R>>(key: K, ...cases: { when: Condition<R>; value: V }[]) =>
      ({ key, cases, optional: true }) as ViewField<R, K, FieldType<V>, true, SubFields<V>>,
  };
}

type Rendered = (record: Record<string, unknown>) => unknown;

function holds<R>(c: Condition<R>): (r: Record<string, unknown>) => boolean {
  switch (c.op) {
    case 'status':
      return (r) => c.in.includes(r.status as string);
    case 'is':
      return (r) => r[c.column] === c.value;
    case 'filled':
    case 'stored':
      return (r) => Boolean(r[c.column]);
    case 'set':
      return (r) => r[c.column] !== null && r[c.column] !== undefined;
    case 'all': {
      const parts = c.of.map(holds);
      return (r) => parts.every((p) => p(r));
    }
  }
}

function shown<R>(v: Value<R>): Rendered {
  switch (v.kind) {
    case 'text':
    case 'json':
      return (r) => r[v.column];
    case 'money':
      return (r) => amountFromCents(r[v.column] as number);
    case 'brt':
      return (r) => formatBrt(r[v.column] as number);
    case 'failure':
      return (r) => failureOf((r[v.column] as string | null) ?? 'PROCESSING_ERROR');
    case 'object':
      return objectOf(v.fields);
  }
}

function objectOf<R>(fields: readonly ViewField<R>[]): Rendered {
  const compiled = fields.map((f) => ({
    key: f.key,
    cases: f.cases.map((c) => ({ when: c.when && holds(c.when), value: shown(c.value) })),
  }));
  return (r) => {
    const out: Record<string, unknown> = {};
    for (const f of compiled) {
      const hit = f.cases.find((c) => !c.when || c.when(r));
      if (hit) out[f.key] = hit.value(r);
    }
    return out;
  };
}

/** The function that builds a table's view from a record, its keys in the table's order. */
export function renderView<R, const Fs extends readonly ViewField<R>[]>(
  fields: Fs,
): (record: R) => ViewOf<Fs> {
  return objectOf(fields) as unknown as (record: R) => ViewOf<Fs>;
}
