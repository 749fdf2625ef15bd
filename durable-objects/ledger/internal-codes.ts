/**
 * The client's internal codes (src/domain/internal-code.ts): each create takes the next values of
 * one counter kept in this object and issues their keyed permutation, so a code is unique by
 * construction among the client's Cash-Ins and Cash-Outs, hot or archived, and nothing is checked
 * (docs/storage-schema.md, "Internal codes"). The permutation's key is drawn with the first code and
 * never changes: it guards no access (codes are no credential), it only keeps codes from telling the
 * client's volume. A value taken and never used (a refused create) is a gap, never reissued.
 */
import { and, eq } from 'drizzle-orm';
import { CODE_KEY_BYTES, CODE_SPACE, counterCode } from '../../src/domain/internal-code';
import { type LedgerDb, sqlOf } from './db';
import { cycleCodes } from './schema';

// The counter's statements are fixed texts on the SQL API: its upsert with RETURNING runs on every
// create, and its key is read as the SQL API gives a blob (an ArrayBuffer).

function take(sql: SqlStorage, count: number): { first: number; key: Uint8Array } {
  const fresh = crypto.getRandomValues(new Uint8Array(CODE_KEY_BYTES));
  const row = sql
    .exec<{ next: number; key: ArrayBuffer }>(
      'INSERT INTO code_counter (id, next, key) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET next = next + excluded.next RETURNING next, key',
      count,
      fresh,
    )
    .one();
  if (row.next > CODE_SPACE) throw new Error('the internal code space of this client is spent');
  return { first: row.next - count, key: new Uint8Array(row.key) };
}

/**
 * `count` new internal codes, distinct from every code this client was ever issued. Taken in the
 * caller's transaction when it has one (a Cash-Out's), else before the partner is called (a
 * Cash-In's, whose TxId carries it): the object's output gate holds the call until the counter is
 * stored, so a code the partner saw is never issued again.
 */
export function takeCodes(sql: SqlStorage, count: number): string[] {
  const { first, key } = take(sql, count);
  return Array.from({ length: count }, (_, i) => counterCode(key, first + i));
}

/**
 * The internal code of a real partner's cycle charge: taken once, then the same on every attempt
 * until the charge is stored (releaseCycleCode, in that transaction), so a retry after a crash sends
 * the same `PUT /cobr/{txid}`.
 */
export function cycleCode(db: LedgerDb, recurrenceId: string, cycle: number): string {
  const sql = sqlOf(db);
  const kept = db
    .select({ counter: cycleCodes.counter })
    .from(cycleCodes)
    .where(and(eq(cycleCodes.recurrenceId, recurrenceId), eq(cycleCodes.cycle, cycle)))
    .get();
  if (kept) return counterCode(keyOf(sql), kept.counter);
  const { first, key } = take(sql, 1);
  db.insert(cycleCodes).values({ recurrenceId, cycle, counter: first }).run();
  return counterCode(key, first);
}

/** The cycle's charge is stored (its own transaction): its code needs keeping no longer. */
export function releaseCycleCode(db: LedgerDb, recurrenceId: string, cycle: number): void {
  db.delete(cycleCodes)
    .where(and(eq(cycleCodes.recurrenceId, recurrenceId), eq(cycleCodes.cycle, cycle)))
    .run();
}

/** Every kept cycle code (tests: none is left once its charge is stored). */
export function keptCycleCodes(db: LedgerDb): { recurrenceId: string; cycle: number; counter: number }[] {
  return db.select().from(cycleCodes).all();
}

function keyOf(sql: SqlStorage): Uint8Array {
  return new Uint8Array(
    sql.exec<{ key: ArrayBuffer }>('SELECT key FROM code_counter WHERE id = 1').one().key,
  );
}
