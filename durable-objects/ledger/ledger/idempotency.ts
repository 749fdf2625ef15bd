/**
 * Idempotency (docs/contract.md, Idempotency) inside the client's Durable Object. A running key is held in
 * memory only: if the object dies mid-request the key is released with it, which is what "after an error the
 * key is released" asks. A success is recorded by the operation itself inside the same storage transaction as
 * its state change, so a crash can never leave a created resource without its replayable response (or the
 * reverse).
 */
import { eq, sql } from 'drizzle-orm';
import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { failure, type OperationResult } from '../../../src/domain/result';
import { idempotencyKeys } from '../schema';
import { fingerprintOf } from './idempotency-codec';

/** What an idempotent command carries: the client's key, if any, and the request's hash. */
export interface Idempotent {
  idempotencyKey?: string;
  requestHash: string;
}

export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Called by the operation inside its transaction to store the response it is about to return. */
export type Remember = (status: number, body: unknown) => void;

export class IdempotencyKeys {
  private readonly running = new Map<string, string>();

  constructor(private readonly db: DrizzleSqliteDODatabase<Record<string, unknown>>) {}

  async run<T>(
    key: string | undefined,
    requestHash: string,
    now: number,
    operation: (remember: Remember) => Promise<OperationResult<T>>,
  ): Promise<OperationResult<T>> {
    if (key === undefined) return operation(() => {});
    const stored = this.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)).get();
    if (stored && stored.createdAt > now - REPLAY_WINDOW_MS) {
      if (stored.requestHash !== fingerprintOf(requestHash)) {
        return failure({
          code: 'IDEMPOTENCY_KEY_REUSED',
          detail: 'This key was used with a different request body',
        });
      }
      return { ok: true, status: stored.status, body: stored.body as T, replayed: true };
    }
    const runningHash = this.running.get(key);
    if (runningHash !== undefined) {
      return runningHash === requestHash
        ? failure({
            code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
            detail: 'The first request with this key is still running',
          })
        : failure({
            code: 'IDEMPOTENCY_KEY_REUSED',
            detail: 'This key was used with a different request body',
          });
    }
    this.running.set(key, requestHash);
    try {
      return await operation((status, body) => {
        this.db
          .insert(idempotencyKeys)
          .values({ key, requestHash, status, body, createdAt: now })
          .onConflictDoUpdate({
            target: idempotencyKeys.key,
            set: { requestHash, status, body, createdAt: now },
          })
          .run();
      });
    } finally {
      this.running.delete(key);
    }
  }
}

/** Forgets a stored answer, so the same key runs again (a refund the network failed). */
export function forgetIdempotencyKey(
  db: DrizzleSqliteDODatabase<Record<string, unknown>>,
  key: string,
): void {
  db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key)).run();
}

/** Stored answers past the replay window, oldest first, through idempotency_created_idx. */
export function expiredIdempotencyKeys(now: number, limit: number) {
  return sql`SELECT key FROM idempotency_keys WHERE created_at < ${now - REPLAY_WINDOW_MS}
        ORDER BY created_at LIMIT ${limit}`;
}

/** Deletes at most `limit` stored answers past the replay window; returns how many left. */
export function pruneIdempotencyKeys(
  db: DrizzleSqliteDODatabase<Record<string, unknown>>,
  now: number,
  limit: number,
): number {
  db.run(sql`DELETE FROM idempotency_keys WHERE key IN (${expiredIdempotencyKeys(now, limit)})`);
  return db.get<{ n: number }>(sql`SELECT changes() AS n`)?.n ?? 0;
}

/** When the oldest stored answer leaves the replay window (the head of idempotency_created_idx). */
export const oldestIdempotencyExpiry = sql`SELECT created_at + ${REPLAY_WINDOW_MS} AS at FROM idempotency_keys ORDER BY created_at LIMIT 1`;

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** Every row, oldest first: what the tests assert on (test/support/ledger-reads.ts), read here so the table keeps one home. */
export function allIdempotencyKeys(
  db: DrizzleSqliteDODatabase<Record<string, unknown>>,
): IdempotencyKeyRow[] {
  return db.select().from(idempotencyKeys).orderBy(idempotencyKeys.createdAt, idempotencyKeys.key).all();
}
