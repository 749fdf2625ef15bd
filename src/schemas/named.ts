/**
 * The names of the OpenAPI document's component schemas, kept on the schema objects themselves: a
 * schema is named once, where it is defined (`export const CashOut = named('CashOut', …)`), and an
 * operation refers to it by the object, so a reference to a schema that has no name, or a misspelt
 * name, cannot exist. The document (src/openapi/components.ts) gathers the named schemas its
 * operations reach and writes each once under `#/components/schemas`, `$ref`'d wherever used.
 *
 * A name may carry field notes: what a field means, beyond what its rules say, added to the
 * component's property descriptions.
 */

type FieldNotes = Record<string, string>;

interface Entry {
  name: string;
  notes?: FieldNotes;
}

const entries = new WeakMap<object, Entry>();

/** `schema` itself, named `name` in the document (optionally with notes on its fields). */
export function named<S extends object>(name: string, schema: S, notes?: FieldNotes): S {
  const known = entries.get(schema);
  if (known && known.name !== name) throw new Error(`schema ${known.name} named again as ${name}`);
  entries.set(schema, { name, ...(notes && { notes }) });
  return schema;
}

/** The component name of `schema`, if it has one. */
export const nameOf = (schema: object): string | undefined => entries.get(schema)?.name;

/** The field notes given with `schema`'s name. */
export const fieldNotesOf = (schema: object): FieldNotes | undefined => entries.get(schema)?.notes;

/** Custom checks whose error message does not read well as documentation get their own text. */
const checkDescriptions = new WeakMap<object, string>();

export function describeCheck(action: unknown, text: string): void {
  if (typeof action !== 'object' || action === null || (action as { type?: unknown }).type !== 'check') {
    throw new Error('describeCheck expects a valibot check action');
  }
  checkDescriptions.set(action, text);
}

export const checkDescriptionOf = (action: object): string | undefined => checkDescriptions.get(action);
