/**
 * The client's internal codes (src/domain/internal-code.ts): each create takes the next values of
 * one counter kept in this object and issues their keyed permutation, so a code is unique by
 * construction among the client's Cash-Ins and Cash-Outs, hot or archived, and nothing is checked
 * (docs/storage-schema.md, "Internal codes"). The permutation's key is drawn with the first code and
 * never changes: it guards no access (codes are no credential), it only keeps codes from telling the
 * client's volume. A value taken and never used (a refused create) is a gap, never reissued.
 */
import { CODE_KEY_BYTES, CODE_SPACE, counterCode } from '../../src/domain/internal-code';

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
export function cycleCode(sql: SqlStorage, recurrenceId: string, cycle: number): string {
  const kept = sql
    .exec<{ counter: number }>(
      'SELECT counter FROM cycle_codes WHERE recurrence_id = ? AND cycle = ?',
      recurrenceId,
      cycle,
    )
    .toArray()[0];
  if (kept) return counterCode(keyOf(sql), kept.counter);
  const { first, key } = take(sql, 1);
  sql.exec(
    'INSERT INTO cycle_codes (recurrence_id, cycle, counter) VALUES (?, ?, ?)',
    recurrenceId,
    cycle,
    first,
  );
  return counterCode(key, first);
}

/** The cycle's charge is stored (its own transaction): its code needs keeping no longer. */
export function releaseCycleCode(sql: SqlStorage, recurrenceId: string, cycle: number): void {
  sql.exec('DELETE FROM cycle_codes WHERE recurrence_id = ? AND cycle = ?', recurrenceId, cycle);
}

function keyOf(sql: SqlStorage): Uint8Array {
  return new Uint8Array(
    sql.exec<{ key: ArrayBuffer }>('SELECT key FROM code_counter WHERE id = 1').one().key,
  );
}
