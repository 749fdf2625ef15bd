/**
 * The worker half of idempotency: reading and checking the header, and fingerprinting the request.
 * The Durable Object holds the keys.
 */
import { sha256Hex } from '../security/secrets';
import { ProblemError } from './errors';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 100;

export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get('x-idempotency-key');
  if (key === null) return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ProblemError(
      'IDEMPOTENCY_KEY_INVALID',
      `X-Idempotency-Key must have at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
    );
  }
  if (key.trim() === '')
    throw new ProblemError('IDEMPOTENCY_KEY_INVALID', 'X-Idempotency-Key must not be blank');
  return key;
}

/** Canonical JSON (sorted keys) so the same body in another key order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestFingerprint(operation: string, target: string, body: unknown): Promise<string> {
  return sha256Hex(`${operation} ${target}\n${canonical(body)}`);
}
