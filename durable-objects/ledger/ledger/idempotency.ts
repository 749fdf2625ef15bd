/**
 * Idempotency (docs/contract.md, Idempotency) inside the client's Durable Object. A running key is held in
 * memory only: if the object dies mid-request the key is released with it, which is what "after an error the
 * key is released" asks. A success is recorded by the operation itself inside the same storage transaction as
 * its state change, so a crash can never leave a created resource without its replayable response (or the
 * reverse). An answer about one Cash-In or Cash-Out is stored beside it (idempotency-codec.ts) and rebuilt
 * from it on a replay, hot or archived: the hot window may archive a closed transaction within its key's
 * 24 hours (docs/storage-schema.md, Hot window bounded by size), and its fixed fields read the same there.
 */
import { desc, eq, or, sql } from 'drizzle-orm';
import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { failure, type OperationResult } from '../../../src/domain/result';
import type { LedgerDb } from '../db';
import { idempotencyKeys } from '../schema';
import { readAnswerContexts, storeAnswerContexts } from '../settings-store';
import {
  type AnswerContext,
  type AnswerKind,
  encodeRebuilt,
  fingerprintOf,
  MAX_CONTEXTS,
  RebuiltAnswer,
} from './idempotency-codec';

/** What an idempotent command carries: the client's key, if any, and the request's hash. */
export interface Idempotent {
  idempotencyKey?: string;
  requestHash: string;
}

export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The transaction an answer is about, as just written: the answer is stored beside it. `fixed` are its
 * fields that never change (src/domain/fixed-fields.ts), which the replay reads back from it.
 */
export interface AnswerAbout {
  kind: AnswerKind;
  internalCode: string;
  fixed: Record<string, unknown>;
  /** Text the request brought that many answers share (a BR Code's location prefix, the merchant's name). */
  context?: string;
}

/**
 * Called by the operation inside its transaction to store the response it is about to return; `about`
 * names the Cash-In or Cash-Out it answers for (its create, a refund), so the key keeps only the rest.
 */
export type Remember = (status: number, body: unknown, about?: AnswerAbout) => void;

/** The fixed fields of the transaction of that kind with this internalCode, hot or archived (the object's finders). */
export type FixedFieldsOf = (
  kind: AnswerKind,
  internalCode: string,
) => Promise<Record<string, unknown> | undefined>;

/** A key's rows: its hash, and the text an older version stored it as (read until it expires). */
const keyIs = (key: string) => or(eq(idempotencyKeys.key, key), sql`${idempotencyKeys.key} = ${key}`);

export class IdempotencyKeys {
  private readonly running = new Map<string, string>();

  constructor(
    private readonly db: LedgerDb,
    private readonly fixedOf: FixedFieldsOf,
  ) {}

  /** A stored answer as first given: rebuilt beside its transaction, or as stored. */
  private async replayed(body: unknown): Promise<unknown> {
    if (!(body instanceof RebuiltAnswer)) return body;
    const context = body.context === undefined ? '' : readAnswerContexts(this.db)[body.context];
    const fixed = await this.fixedOf(body.kind, body.internalCode);
    const answer = fixed && context !== undefined ? body.answer(fixed, context) : undefined;
    if (answer === undefined)
      throw new Error(`stored answer of ${body.kind} ${body.internalCode} cannot be rebuilt`);
    return answer;
  }

  /**
   * The context's place in the client's list, added in the answer's own transaction when new: read from
   * storage each time, so a rolled-back answer leaves no index behind. Past MAX_CONTEXTS, none.
   */
  private context(text: string): AnswerContext | undefined {
    const contexts = readAnswerContexts(this.db);
    let index = contexts.indexOf(text);
    if (index < 0 && contexts.length < MAX_CONTEXTS) {
      index = contexts.push(text) - 1;
      storeAnswerContexts(this.db, contexts);
    }
    return index < 0 ? undefined : { index, text };
  }

  async run<T>(
    key: string | undefined,
    requestHash: string,
    now: number,
    operation: (remember: Remember) => Promise<OperationResult<T>>,
  ): Promise<OperationResult<T>> {
    if (key === undefined) return operation(() => {});
    const stored = this.db
      .select()
      .from(idempotencyKeys)
      .where(keyIs(key))
      .orderBy(desc(idempotencyKeys.createdAt))
      .get();
    if (stored && stored.createdAt > now - REPLAY_WINDOW_MS) {
      if (stored.requestHash !== fingerprintOf(requestHash)) {
        return failure({
          code: 'IDEMPOTENCY_KEY_REUSED',
          detail: 'This key was used with a different request body',
        });
      }
      return {
        ok: true,
        status: stored.status,
        body: (await this.replayed(stored.body)) as T,
        replayed: true,
      };
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
      return await operation((status, answer, about) => {
        const body = about
          ? encodeRebuilt(
              answer,
              about.kind,
              about.internalCode,
              about.fixed,
              about.context === undefined ? undefined : this.context(about.context),
            )
          : answer;
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
  db.delete(idempotencyKeys).where(keyIs(key)).run();
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
