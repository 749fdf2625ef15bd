/**
 * ArchiveRegistry: where the ids of a client's archived transactions are found, outside the client's
 * object (docs/storage-schema.md, "Archive", Lookups). One object per client and shard
 * (`<clientId>/<shard>`; durable-objects/ledger/archive/archive-index.ts picks the shard from the id and
 * the client's shard count, recorded in the client's object),
 * each one table of (47-bit id hash, segment id) pairs: the index the client's object kept for every
 * archived transaction, moved here so that the client's object keeps no state per archived
 * transaction, and the transactions of archived webhook-delivery segments (under a key of their own).
 * Entries are added (idempotent: the same pair again is a no-op) and never change; a delivery
 * segment's leave with it after its 7 days. A crash between adding them and the archive step's own
 * transaction leaves them ready for the step's retry; an entry naming a segment the client's manifest
 * does not hold as DONE is ignored there.
 *
 * The table is created here, not by migrations: it is this object's only table, keyed and shaped like
 * the client's object kept before (its first-generation index), and nothing else reads or writes it.
 */
import { DurableObject } from 'cloudflare:workers';

/**
 * Runs `statement` with (hash, segment) for each flat pair, in one transaction. A module function, not
 * a method: every method of the class is callable over RPC.
 */
function eachPair(storage: DurableObjectStorage, pairs: number[], statement: string): void {
  storage.transactionSync(() => {
    for (let i = 0; i + 1 < pairs.length; i += 2)
      storage.sql.exec(statement, pairs[i] as number, pairs[i + 1] as number);
  });
}

export class ArchiveRegistry extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS archive_ids (hash INTEGER NOT NULL, segment INTEGER NOT NULL, PRIMARY KEY (hash, segment)) WITHOUT ROWID',
    );
  }

  /** Adds (hash, segment) pairs, given flat: [hash0, segment0, hash1, segment1, …]. */
  add(pairs: number[]): void {
    eachPair(this.ctx.storage, pairs, 'INSERT OR IGNORE INTO archive_ids (hash, segment) VALUES (?, ?)');
  }

  /**
   * Removes (hash, segment) pairs, flat like add: a segment of webhook deliveries leaving the archive
   * after its 7 days (ledger/archive/archive-deliveries.ts). Idempotent.
   */
  remove(pairs: number[]): void {
    eachPair(this.ctx.storage, pairs, 'DELETE FROM archive_ids WHERE hash = ? AND segment = ?');
  }

  /** The pairs registered under any of `hashes`, flat: [hash, segment, …] (the caller filters its manifest). */
  find(hashes: number[]): number[] {
    const out: number[] = [];
    // A Durable Object's query binds at most 100 values.
    for (let i = 0; i < hashes.length; i += 90) {
      const chunk = hashes.slice(i, i + 90);
      for (const r of this.ctx.storage.sql
        .exec<{ hash: number; segment: number }>(
          `SELECT hash, segment FROM archive_ids WHERE hash IN (${chunk.map(() => '?').join(', ')})`,
          ...chunk,
        )
        .toArray())
        out.push(r.hash, r.segment);
    }
    return out;
  }

  /** How many pairs this shard holds (operators and tests: the registry's size). */
  size(): number {
    return this.ctx.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM archive_ids').one().n;
  }
}

// ---- What the tests read and stage inside a shard (test/support/archive-registry.ts) ----------
// Module functions over the shard's storage, not RPC methods, so no caller can reach them.

/** Every (hash, segment) pair this shard holds. */
export function allPairs(sqlApi: SqlStorage): [hash: number, segment: number][] {
  return sqlApi
    .exec<{ hash: number; segment: number }>('SELECT hash, segment FROM archive_ids')
    .toArray()
    .map((r): [number, number] => [r.hash, r.segment]);
}

/** Empties this shard (a registry that lost its pairs). */
export function clearPairs(sqlApi: SqlStorage): void {
  sqlApi.exec('DELETE FROM archive_ids');
}
