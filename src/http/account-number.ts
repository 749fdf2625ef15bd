/** The `{number}` path parameter of the account routes (docs/contract.md, Statement and balance). */
import { ACCOUNT_NUMBER } from '../domain/statement';
import type { ApiRequest } from './request-context';
import { validationError } from './validation';

/** The `{number}` path parameter: letters, digits and hyphen, at most 32 characters (400 otherwise). */
export function accountNumberParam(request: ApiRequest): string {
  let number: string | undefined;
  try {
    number = decodeURIComponent(String(request.params.number ?? ''));
  } catch {
    number = undefined;
  }
  if (number === undefined || !ACCOUNT_NUMBER.test(number)) {
    throw validationError(
      { number: ['number must be letters, digits or hyphen, at most 32 characters'] },
      'Invalid account number',
    );
  }
  return number;
}
