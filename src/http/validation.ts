/**
 * Request validation: valibot issues become the `errors` map of a 400 VALIDATION_ERROR, keyed by
 * the field's dotted path, so every bad field is named.
 */
import * as v from 'valibot';
import { ProblemError } from './errors';

export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? 'body';
    const message =
      issue.input === undefined && issue.kind === 'schema' ? `${path} is required` : issue.message;
    const list = errors[path] ?? [];
    if (!list.includes(message)) list.push(message);
    errors[path] = list;
  }
  return errors;
}

export function validationError(errors: Record<string, string[]>, detail = 'One or more fields are invalid') {
  return new ProblemError('VALIDATION_ERROR', detail, { errors });
}

export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  const errors = result.success ? {} : issuesToErrors(result.issues);
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
