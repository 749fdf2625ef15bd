/**
 * The document's `components.schemas`: every named schema (src/schemas/named.ts) that the
 * documented operations reach, the request bodies and responses they name and every named schema
 * nested in those, each written once and `$ref`'d wherever it is used. Nothing is listed by hand: a
 * schema is in the document exactly when something documented uses it.
 */
import type * as v from 'valibot';
import { fieldNotesOf, nameOf } from '../schemas/named';
import { componentSchemas, type Schema } from './json-schema';

/** Every named schema in `roots` or nested in them (entries, options, items, wrapped, pipes …). */
function namedSchemas(roots: readonly v.GenericSchema[]): Map<string, v.GenericSchema> {
  const found = new Map<string, v.GenericSchema>();
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    const kind = (value as { kind?: unknown }).kind;
    if (kind !== undefined && kind !== 'schema') return; // an action: validations hold no schema
    if (kind === 'schema') {
      const name = nameOf(value);
      const other = name === undefined ? undefined : found.get(name);
      if (other && other !== value) throw new Error(`two schemas are named ${name}`);
      if (name !== undefined) found.set(name, value as v.GenericSchema);
    }
    for (const inner of Object.values(value)) visit(inner);
  };
  roots.forEach(visit);
  return found;
}

/** Adds each named schema's field notes to its converted properties (a `$ref` keeps its target's rules). */
function withFieldNotes(schemas: Record<string, Schema>, named: Map<string, v.GenericSchema>) {
  for (const [name, schema] of named) {
    const notes = fieldNotesOf(schema);
    if (!notes) continue;
    const properties = schemas[name]?.properties as Record<string, Schema> | undefined;
    if (!properties) throw new Error(`field notes for ${name}, which has no properties`);
    for (const [field, description] of Object.entries(notes)) {
      const property = properties[field];
      if (!property) throw new Error(`field note for unknown field ${name}.${field}`);
      properties[field] = { ...property, description };
    }
  }
  return schemas;
}

/**
 * The component schemas `roots` reach, by name in alphabetical order: the order of the document no
 * longer depends on which module declares what.
 */
export function components(roots: readonly v.GenericSchema[]): Record<string, Schema> {
  const found = namedSchemas(roots);
  const named = new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return withFieldNotes(componentSchemas(Object.fromEntries(named)), named);
}
