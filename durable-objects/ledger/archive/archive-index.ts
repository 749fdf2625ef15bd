/**
 * Where an archived transaction is found by id. Every id of an archived Cash-In or Cash-Out
 * (internalCode, transactionId, externalReference, endToEndId, refund endToEndId; archive-sources.ts)
 * and of an archived devolution entry is hashed to 47 bits and registered, with the segment that
 * holds it, in the client's archive registry: ARCHIVE_REGISTRY objects outside the client's object,
 * one per hash shard (durable-objects/archive-registry.ts; the client's count, registryShards), so the
 * client's object keeps nothing per archived transaction. A lookup is one call to one shard, then the
 * segment read; a collision only costs reading one more segment: the reader compares the real ids
 * (archive-reads.ts).
 *
 * Two generations: segments archived before the registry keep their ids in the object's own main
 * index (same hash, same pairs, never added to again; archive-store.ts); a lookup reads both.
 * Archived deliveries keep their own index in the object: it empties whole 7 days after they ended.
 */

import { DEFAULT_REGISTRY_SHARDS, registryShardsConfigured } from '../../../src/config';
import { internalCodeOfTxId } from '../../../src/domain/ids';
import { RANDOM_CODE } from '../../../src/domain/internal-code';
import type { LedgerContext } from '../ledger-context';
import { readRegistryShards, recordRegistryShards } from '../settings-store';
import { manifestSegments } from './archive-manifest';
import { anyIndexed, anySegment, hasArchiveOf, segmentsByHash } from './archive-store';

/** One shard of the client's archive registry (an RPC stub). */
const registryShard = (ledger: LedgerContext, shard: number) =>
  ledger.env.ARCHIVE_REGISTRY.getByName(`${ledger.profile.clientId}/${shard}`);

/**
 * FNV-1a 64 cut to 47 bits: a JS number exactly, and SQLite stores it in 6 bytes (its integer
 * serial type for |n| < 2^47), so an index row is ~13 bytes with its cell pointer. Sync and cheap.
 */
export function idHash(id: string): number {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < id.length; i++) {
    h ^= BigInt(id.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return Number(h >> 17n);
}

/**
 * How many registry shards the client's ids are spread over: recorded in the client's object when its
 * archive began and fixed since, since an id's shard depends on it. A client archived before counts were
 * recorded has 64 (every id it registered is there). Sizing: docs/operating.md, Capacity planning.
 */
export function registryShards(ledger: LedgerContext): number {
  return readRegistryShards(ledger.db) ?? DEFAULT_REGISTRY_SHARDS;
}

/**
 * Fixes the client's shard count before its archive's first reservation (archive.ts reserve, in the
 * same synchronous block): the deployment's ARCHIVE_REGISTRY_SHARDS for a client that never archived,
 * 64 for one that did before counts were recorded. Once recorded, the configuration no longer applies
 * to it (re-sharding a client is not built: docs/storage-schema.md, Archive).
 */
export function fixRegistryShards(ledger: LedgerContext): void {
  if (readRegistryShards(ledger.db) !== undefined) return;
  const shards = anySegment(ledger.storage.sql)
    ? DEFAULT_REGISTRY_SHARDS
    : registryShardsConfigured(ledger.env);
  recordRegistryShards(ledger.db, shards);
}

/**
 * The code a TxId of ours is registered under instead of itself: only a code of the random form
 * (before the counter, src/domain/internal-code.ts). A TxId carrying a counter code is registered
 * under itself, like any id: ids of that shape registered before counter codes existed (a
 * reference, say) were routed by their own hash, and must stay where they are.
 */
export function registeredUnderCode(id: string): string | undefined {
  const code = internalCodeOfTxId(id);
  return code !== undefined && RANDOM_CODE.test(code) ? code : undefined;
}

/**
 * The shard an id is registered in, among the client's `shards` (registryShards): a TxId of ours with a
 * random code goes with it, so a lookup by TxId, which may be registered under either (keysOf), is one call.
 */
export function shardOf(id: string, shards: number): number {
  return idHash(registeredUnderCode(id) ?? id) % shards;
}

/** The (hash, segment) pairs of each segment's ids, flat, per shard of the client's registry. */
function pairsByShard(
  ledger: LedgerContext,
  held: readonly (readonly [number, string[]])[],
): Map<number, number[]> {
  const shards = registryShards(ledger);
  const byShard = new Map<number, number[]>();
  for (const [segment, ids] of held)
    for (const id of ids) {
      const shard = shardOf(id, shards);
      const pairs = byShard.get(shard) ?? [];
      pairs.push(idHash(id), segment);
      byShard.set(shard, pairs);
    }
  return byShard;
}

/** Registers `ids` as held by `segment` (idempotent: a retried step registers the same pairs again). */
export async function registerIds(ledger: LedgerContext, segment: number, ids: string[]): Promise<void> {
  const byShard = pairsByShard(ledger, [[segment, ids]]);
  await Promise.all([...byShard].map(([shard, pairs]) => registryShard(ledger, shard).add(pairs)));
}

/**
 * Unregisters each segment's ids: delivery segments leaving after their 7 days, a rehydrated row's
 * stale copy. One call per shard for all of them (idempotent).
 */
export async function unregisterIds(
  ledger: LedgerContext,
  held: readonly (readonly [number, string[]])[],
): Promise<void> {
  const byShard = pairsByShard(ledger, held);
  await Promise.all([...byShard].map(([shard, pairs]) => registryShard(ledger, shard).remove(pairs)));
}

/**
 * The id an archived delivery segment is registered under for each transaction it holds deliveries
 * of: not the transactionId itself, so a GET by transactionId never meets a delivery segment's pair.
 */
export const deliveriesId = (aggregateId: string) => `deliveries:${aggregateId}`;

/**
 * The index keys a row of `kind` named by `id` may be under: a Cash-In TxId of ours is indexed
 * through the internalCode it carries (archive-sources.ts), one of an older version under itself.
 */
function keysOf(id: string, kind: string): number[] {
  const code = kind === 'cash-in' ? registeredUnderCode(id) : undefined;
  return code === undefined ? [idHash(id)] : [idHash(id), idHash(code)];
}

/**
 * DONE delivery segments that may hold `id`'s deliveries, newest first: the registry's (one call),
 * and the object's own index of segments archived before deliveries were registered (7 days' worth).
 * Delivery segments are never folded, so the manifest look-up reads no R2.
 */
export async function deliverySegmentsFor(
  ledger: LedgerContext,
  id: string,
): Promise<{ id: number; key: string }[]> {
  const sql = ledger.storage.sql;
  if (!hasArchiveOf(sql, 'delivery')) return [];
  const key = deliveriesId(id);
  const pairs = await registered(ledger, shardOf(key, registryShards(ledger)), [idHash(key)]);
  const found = new Map(segmentsByHash(sql, 'deliveries', [idHash(id)], 'delivery').map((s) => [s.id, s]));
  const segments = [...new Set(pairs.map(([, segment]) => segment))];
  for (const s of await manifestSegments(ledger, segments, 'delivery', true)) found.set(s.id, s);
  return [...found.values()].sort((a, b) => b.id - a.id);
}

/** The registry's pairs for `hashes`, all in `shard`: [hash, segment] each. */
async function registered(
  ledger: LedgerContext,
  shard: number,
  hashes: number[],
): Promise<[number, number][]> {
  const flat = await registryShard(ledger, shard).find(hashes);
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i] as number, flat[i + 1] as number]);
  return pairs;
}

/**
 * DONE segments of `kind` that may hold `id`, newest first (the reader compares the real ids): the
 * object's own index (segments archived before the registry) and one call to the id's shard.
 */
export async function segmentsFor(
  ledger: LedgerContext,
  id: string,
  kind: string,
): Promise<{ id: number; key: string }[]> {
  const sql = ledger.storage.sql;
  if (!hasArchiveOf(sql, kind)) return [];
  const keys = keysOf(id, kind);
  const pairs = await registered(ledger, shardOf(id, registryShards(ledger)), keys);
  const found = new Map(segmentsByHash(sql, 'main', keys, kind).map((s) => [s.id, s]));
  const segments = [...new Set(pairs.map(([, segment]) => segment))];
  for (const s of await manifestSegments(ledger, segments, kind, true)) found.set(s.id, s);
  return [...found.values()].sort((a, b) => b.id - a.id);
}

/** A segment of the client's manifest (its id and R2 key). */
export interface SegmentRef {
  id: number;
  key: string;
}

/**
 * The registry's hits for `ids` among segments of `kind` in any state (a hash hit: the reader
 * compares the real ids): each id hit → those segments, newest first; `legacy`, the ids hit in the
 * object's own first-generation index. One call per distinct shard, made at once; none while nothing
 * of `kind` was ever archived. Ask after the hot check: a row hot then and archived since was
 * registered before it left (archive.ts), so it is found here.
 */
export async function archivedSegments(
  ledger: LedgerContext,
  kind: string,
  ids: string[],
): Promise<{ legacy: Set<string>; segments: Map<string, SegmentRef[]> }> {
  const sql = ledger.storage.sql;
  const legacy = new Set<string>();
  const segments = new Map<string, SegmentRef[]>();
  if (ids.length === 0 || !hasArchiveOf(sql, kind)) return { legacy, segments };
  for (const id of ids) if (anyIndexed(sql, [idHash(id)], kind)) legacy.add(id);
  const shards = registryShards(ledger);
  const byShard = new Map<number, string[]>();
  for (const id of ids) byShard.set(shardOf(id, shards), [...(byShard.get(shardOf(id, shards)) ?? []), id]);
  await Promise.all(
    [...byShard].map(async ([shard, some]) => {
      const pairs = await registered(
        ledger,
        shard,
        some.map((id) => idHash(id)),
      );
      if (pairs.length === 0) return;
      const ofKind = await manifestSegments(
        ledger,
        [...new Set(pairs.map(([, segment]) => segment))],
        kind,
        false,
      );
      for (const id of some) {
        const hash = idHash(id);
        const held = ofKind.filter((s) => pairs.some(([h, segment]) => h === hash && segment === s.id));
        if (held.length > 0) segments.set(id, held);
      }
    }),
  );
  return { legacy, segments };
}
