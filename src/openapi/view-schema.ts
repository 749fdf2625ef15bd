/**
 * A transaction view's response schema, built from its field table (src/domain/view-fields.ts):
 * the table gives the keys, their order, which may be absent and which nest; the resource
 * documents each key's value (format, description, examples) by name. A key the table lacks or
 * leaves undocumented, or a documented value that cannot be what the view shows, does not compile.
 */
import * as v from 'valibot';
import type { AnyField, FieldType, SubFields } from '../domain/view-fields';

type Nested<F> = SubFields<F> extends readonly AnyField[] ? SubFields<F> : never;
type Keys<Fs extends readonly AnyField[]> = Fs[number]['key'];
type Schema<T> = T extends v.GenericSchema ? T : never;
type AsEntries<T> = T extends v.ObjectEntries ? T : never;
type Optional<F extends AnyField, S> = S extends v.GenericSchema
  ? F['optional'] extends true
    ? v.OptionalSchema<S, undefined>
    : S
  : never;

/** A schema for each value; no key the table lacks. */
type ValueDocs<Fs extends readonly AnyField[]> = {
  [F in Fs[number] as F['key']]: v.GenericSchema<unknown, FieldType<F>>;
};

/** How a table's fields are documented: each value's schema, a nested object by its own fields. */
export type FieldDocs<Fs extends readonly AnyField[]> = {
  [F in Fs[number] as F['key']]: [Nested<F>] extends [never]
    ? v.GenericSchema<unknown, FieldType<F>>
    : ValueDocs<Nested<F>>;
};

type ValueEntries<Fs extends readonly AnyField[], D> = {
  [F in Fs[number] as F['key']]: Optional<F, Schema<D[F['key'] & keyof D]>>;
};

type Entries<Fs extends readonly AnyField[], D> = {
  [F in Fs[number] as F['key']]: Optional<
    F,
    [Nested<F>] extends [never]
      ? Schema<D[F['key'] & keyof D]>
      : v.ObjectSchema<AsEntries<ValueEntries<Nested<F>, D[F['key'] & keyof D]>>, undefined>
  >;
};

/** No documentation for a key the table lacks, at the top or in a nested object. */
type Exact<D, Fs extends readonly AnyField[]> = Record<Exclude<keyof D, Keys<Fs>>, never> & {
  [F in Fs[number] as F['key']]: [Nested<F>] extends [never]
    ? unknown
    : Record<Exclude<keyof D[F['key'] & keyof D], Keys<Nested<F>>>, never>;
};

function build(fields: readonly AnyField[], docs: Record<string, unknown>): v.GenericSchema {
  const extra = Object.keys(docs).filter((key) => !fields.some((f) => f.key === key));
  if (extra.length > 0) throw new Error(`documented fields the view does not have: ${extra.join(', ')}`);
  const entries: v.ObjectEntries = {};
  for (const f of fields) {
    const doc = docs[f.key] as v.GenericSchema | Record<string, unknown>;
    const value = f.cases[0]?.value;
    const schema =
      value?.kind === 'object' && doc.kind !== 'schema'
        ? build(value.fields, doc as Record<string, unknown>)
        : (doc as v.GenericSchema);
    entries[f.key] = f.optional ? v.optional(schema) : schema;
  }
  return v.object(entries);
}

/** The response schema of a view: the table's keys in its order, each documented by `docs`. */
export function viewSchema<const Fs extends readonly AnyField[], D extends FieldDocs<Fs>>(
  fields: Fs,
  docs: D & Exact<D, Fs>,
): v.ObjectSchema<AsEntries<Entries<Fs, D>>, undefined> {
  return build(fields, docs as Record<string, unknown>) as v.ObjectSchema<
    AsEntries<Entries<Fs, D>>,
    undefined
  >;
}
