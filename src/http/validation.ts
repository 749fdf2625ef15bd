/**
 * Request validation: valibot issues become the `errors` map of a 400 VALIDATION_ERROR, keyed by
 * the field's dotted path, so every bad field is named.
 */
import * as v from 'valibot';
import { ProblemError } from './errors';

export function issuesToErrors(
  issues: readonly v.BaseIssue<unknown>[],
  schema?: unknown,
): Record<string, string[]> {
  // A Map, not an object: an unknown field may be named `__proto__` or `constructor`.
  const errors = new Map<string, string[]>();
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? 'body';
    const message = isUnknownField(issue)
      ? unknownFieldMessage(path, schema)
      : issue.input === undefined && issue.kind === 'schema'
        ? `${path} is required`
        : issue.message;
    const list = errors.get(path) ?? [];
    if (!list.includes(message)) list.push(message);
    errors.set(path, list);
  }
  return Object.fromEntries(errors);
}

export function validationError(errors: Record<string, string[]>, detail = 'One or more fields are invalid') {
  return new ProblemError('VALIDATION_ERROR', detail, { errors });
}

export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  const errors = result.success ? {} : issuesToErrors(result.issues, schema);
  arraysForObjects(schema, input, '', errors);
  if (!result.success || Object.keys(errors).length > 0) throw validationError(errors);
  return result.output;
}

/** The parts of a valibot schema this walk reads. */
interface SchemaNode {
  type: string;
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
  options?: SchemaNode[];
}

/**
 * A key a strictObject does not declare. Request bodies are strict (additionalProperties: false in
 * the OpenAPI document): a misspelt field silently ignored would leave a limit or a webhook unset
 * while the caller believes it set.
 */
function isUnknownField(issue: v.BaseIssue<unknown>): boolean {
  return issue.type === 'strict_object' && issue.expected === 'never';
}

function unknownFieldMessage(path: string, schema: unknown): string {
  const keys = path.split('.');
  const name = keys.pop() as string;
  const known = fieldsAt(schema as SchemaNode | undefined, keys);
  const close = known.find((k) => k !== name && resembles(k, name));
  return `${name} is not a field of this request${close ? ` (did you mean ${close}?)` : ''}`;
}

/** The field names an object schema declares at `keys` (array indexes skipped), any variant. */
function fieldsAt(node: SchemaNode | undefined, keys: string[]): string[] {
  while (node && WRAPPERS.has(node.type) && node.wrapped) node = node.wrapped;
  if (!node) return [];
  if (node.options) return node.options.flatMap((option) => fieldsAt(option, keys));
  if (keys.length === 0) return Object.keys(node.entries ?? {});
  const [key, ...rest] = keys as [string, ...string[]];
  if (node.type === 'array') return fieldsAt(node.item, /^\d+$/.test(key) ? rest : keys);
  return fieldsAt(node.entries?.[key], rest);
}

/** Same name but for case, a prefix of the other, or at most two edits apart. */
export function resembles(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === '' || y === '') return false;
  if (x.startsWith(y) || y.startsWith(x)) return true;
  if (Math.abs(x.length - y.length) > 2) return false;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return (previous[y.length] as number) <= 2;
}

const WRAPPERS = new Set([
  'optional',
  'exact_optional',
  'nullable',
  'nullish',
  'non_nullable',
  'non_optional',
]);

/**
 * valibot's `object` takes an array for an object (both are `typeof 'object'`), so `limits: []`
 * would pass as `{}`; the contract (and the document's `type: object`) does not. Names each place
 * where the input has an array and the schema an object.
 */
function arraysForObjects(schema: unknown, input: unknown, path: string, errors: Record<string, string[]>) {
  let node = schema as SchemaNode;
  while (WRAPPERS.has(node.type) && node.wrapped) node = node.wrapped;
  if (node.entries && Array.isArray(input)) {
    errors[path || 'body'] = [`${path || 'body'} must be an object`];
  } else if (node.entries && input !== null && typeof input === 'object') {
    for (const [key, entry] of Object.entries(node.entries)) {
      if (Object.hasOwn(input, key)) {
        arraysForObjects(
          entry,
          (input as Record<string, unknown>)[key],
          path ? `${path}.${key}` : key,
          errors,
        );
      }
    }
  } else if (node.type === 'array' && node.item && Array.isArray(input)) {
    input.forEach((item, i) => {
      arraysForObjects(node.item, item, `${path}.${i}`, errors);
    });
  }
}
