/**
 * For a value the code's own construction guarantees (an index within bounds, a key set just before):
 * the value, narrowed, or a typed error naming what was missing, instead of a `!` that would let an
 * `undefined` travel on.
 */
export class MissingValueError extends Error {
  override readonly name = 'MissingValueError';
}

export function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new MissingValueError(`${what} is missing`);
  return value;
}
