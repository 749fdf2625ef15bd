/**
 * Every SQL statement of the HealthAnalyzer's own tables (schema.ts; the console's series are in
 * series-store.ts). Callers wrap writes in the object's storage transaction.
 */

import { drizzle } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import migrations from './migrations/migrations';

export class AnalyzerStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Inside the constructor's blockConcurrencyWhile: the tables exist before any call. */
  static async open(storage: DurableObjectStorage): Promise<AnalyzerStore> {
    await migrate(drizzle(storage), migrations);
    return new AnalyzerStore(storage.sql);
  }

  loadState(): Map<string, string> {
    const rows = this.sql.exec<{ key: string; value: string }>('SELECT key, value FROM state').toArray();
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  putState(key: string, value: unknown): void {
    this.sql.exec(
      'INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      key,
      JSON.stringify(value),
    );
  }

  deleteState(key: string): void {
    this.sql.exec('DELETE FROM state WHERE key = ?', key);
  }

  isSeen(id: string): boolean {
    return this.sql.exec('SELECT 1 FROM seen WHERE id = ?', id).toArray().length > 0;
  }

  markSeen(id: string, now: number): void {
    this.sql.exec('INSERT OR IGNORE INTO seen (id, at) VALUES (?, ?)', id, now);
  }

  countSeen(ids: string[]): number {
    let n = 0;
    for (let i = 0; i < ids.length; i += 50) {
      const chunk = ids.slice(i, i + 50);
      n += this.sql
        .exec<{ n: number }>(
          `SELECT count(*) AS n FROM seen WHERE id IN (${chunk.map(() => '?').join(',')})`,
          ...chunk,
        )
        .one().n;
    }
    return n;
  }

  /** By the seen_at_idx index. */
  forgetSeenBefore(at: number): void {
    this.sql.exec('DELETE FROM seen WHERE at < ?', at);
  }

  park(at: number, body: unknown): void {
    this.sql.exec('INSERT INTO parked (at, body) VALUES (?, ?)', at, JSON.stringify(body));
  }

  parkedCount(): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM parked').one().n;
  }

  /** In time order (ties in arrival order). */
  parkedRows(): { at: number; body: string }[] {
    return this.sql
      .exec<{ at: number; body: string }>('SELECT at, body FROM parked ORDER BY at, seq')
      .toArray();
  }

  clearParked(): void {
    this.sql.exec('DELETE FROM parked');
  }
}
