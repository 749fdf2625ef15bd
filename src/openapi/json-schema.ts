/**
 * Valibot → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) for the document's
 * `components.schemas`. Named schemas become `$ref`s wherever another schema uses them, so a rule
 * such as AmountSchema is written once in src/schemas and appears once in the document.
 *
 * What JSON Schema cannot say is not dropped silently: a `check` (custom rule) adds its message to
 * the description, `trim` and `toUpperCase` are ignored (they normalize, they do not reject), and a case-insensitive
 * regex is rewritten as an explicit case-insensitive pattern. Anything else unsupported throws, so
 * a new valibot feature in a request schema fails the build of the document instead of vanishing.
 */
import {
  type ConversionConfig,
  type JsonSchema,
  type OverrideActionContext,
  toJsonSchema,
  toJsonSchemaDefs,
} from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { checkDescriptionOf, nameOf } from '../schemas/named';

export type Schema = Record<string, unknown>;
type AnySchema = v.GenericSchema;

const REF_PREFIX = '#/components/schemas/';

/** A valibot schema (not a plain JSON Schema object, not an action). */
export const isValibotSchema = (value: unknown): value is AnySchema =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';

/** A `$ref` to a named schema's component (src/schemas/named.ts); an unnamed one has none. */
export function ref(schema: AnySchema): Schema {
  const name = nameOf(schema);
  if (name === undefined) throw new Error('a $ref to a schema without a name: give it one with named()');
  return { $ref: `${REF_PREFIX}${name}` };
}

/** `[a-f]` → `[a-fA-F]`, `x` → `[xX]`: the `i` flag spelled out, which JSON Schema patterns lack. */
export function caseInsensitivePattern(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      const range = source.slice(i, i + 3);
      if (/^[a-z]-[a-z]$/.test(range) || /^[A-Z]-[A-Z]$/.test(range)) {
        out += `${range.toLowerCase()}${range.toUpperCase()}`;
        i += 2;
      } else if (/[a-zA-Z]/.test(c)) out += `${c.toLowerCase()}${c.toUpperCase()}`;
      else out += c;
      continue;
    }
    if (c === '[') inClass = true;
    out += /[a-zA-Z]/.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
  }
  return out;
}

function appendDescription(schema: JsonSchema, sentence: string): JsonSchema {
  const text = sentence.endsWith('.') ? sentence : `${sentence}.`;
  return { ...schema, description: schema.description ? `${schema.description} ${text}` : text };
}

function overrideAction({ valibotAction, jsonSchema }: OverrideActionContext): JsonSchema | undefined {
  const action = valibotAction as { type: string; message?: unknown; requirement?: unknown };
  if (action.type === 'check') {
    const text = checkDescriptionOf(valibotAction) ?? action.message;
    return typeof text === 'string' ? appendDescription(jsonSchema, text) : jsonSchema;
  }
  if (action.type === 'regex' && action.requirement instanceof RegExp && action.requirement.flags) {
    const { source, flags } = action.requirement;
    if (flags.replace(/[iu]/g, '') !== '') throw new Error(`regex flags ${flags} have no JSON Schema form`);
    return { ...jsonSchema, pattern: flags.includes('i') ? caseInsensitivePattern(source) : source };
  }
  return undefined;
}

const CONFIG: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input',
  errorMode: 'throw',
  // Both normalize what they accept; neither refuses anything (a document's letters are read upper-case).
  ignoreActions: ['trim', 'to_upper_case'],
  overrideAction,
};

/**
 * JSON Schemas of named valibot schemas, referencing one another through `#/components/schemas`.
 * `typeMode: 'input'`: request schemas are documented as what the client sends (before defaults
 * and transformations); response schemas have no transformations, so input = output for them.
 */
export function componentSchemas(named: Record<string, AnySchema>): Record<string, Schema> {
  const defs = toJsonSchemaDefs(named, {
    ...CONFIG,
    overrideRef: ({ referenceId }) => `${REF_PREFIX}${referenceId}`,
  });
  return tidy(defs) as Record<string, Schema>;
}

/** Drops the empty `required: []` the converter leaves on objects whose fields are all optional. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'required' && Array.isArray(inner) && inner.length === 0) continue;
    out[key] = tidy(inner);
  }
  return out;
}

/** One schema converted on its own (parameters): everything inline, no `$schema`. */
export function inlineSchema(schema: AnySchema): Schema {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { ...CONFIG });
  return tidy(rest) as Schema;
}
