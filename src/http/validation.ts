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
  if (!result.success) throw validationError(issuesToErrors(result.issues));
  return result.output;
}
