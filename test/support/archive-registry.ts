/**
 * A client's archive registry (durable-objects/archive-registry.ts) seen from a test: its shard count
 * (recorded in the client's object), how many (id hash, segment) pairs its shards hold, and every shard
 * emptied (a registry that lost its pairs), through the registry's own functions (allPairs, clearPairs).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { allPairs, clearPairs } from '../../durable-objects/archive-registry';
import { registryShards } from '../../durable-objects/ledger/archive/archive-index';
import { forgetRegistryShards, readRegistryShards } from '../../durable-objects/ledger/settings-store';
import type { Integrator } from './harness';
import { ledgerContextOf, ledgerStub } from './ledger';

const shardStub = (clientId: string, shard: number) => env.ARCHIVE_REGISTRY.getByName(`${clientId}/${shard}`);

/** The client's shard count as its lookups use it (64 while none is recorded). */
export function shardsOf(clientId: string): Promise<number> {
  return runInDurableObject(ledgerStub(clientId), (instance) => registryShards(ledgerContextOf(instance)));
}

/** The shard count recorded in the client's object, undefined while none is. */
export function recordedShards(clientId: string): Promise<number | undefined> {
  return runInDurableObject(ledgerStub(clientId), (instance) =>
    readRegistryShards(ledgerContextOf(instance).db),
  );
}

/** Forgets the client's recorded count: a client whose archive began before counts were recorded. */
export function forgetShards(clientId: string): Promise<void> {
  return runInDurableObject(ledgerStub(clientId), (instance) =>
    forgetRegistryShards(ledgerContextOf(instance).db),
  );
}

/** Pairs in every shard of the client's registry (the first `shards`, by default the client's count). */
export async function registryPairs(clientId: string, shards?: number): Promise<number> {
  const count = shards ?? (await shardsOf(clientId));
  const sizes = await Promise.all(
    Array.from({ length: count }, (_, shard) => shardStub(clientId, shard).size()),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/** Every pair of the client's registry as [hash, segment, shard], read from each shard's table. */
export async function registryShardContents(
  clientId: string,
  shards?: number,
): Promise<[number, number, number][]> {
  const count = shards ?? (await shardsOf(clientId));
  const out: [number, number, number][] = [];
  for (let shard = 0; shard < count; shard++)
    await runInDurableObject(shardStub(clientId, shard), async (_instance, state) => {
      for (const [hash, segment] of allPairs(state.storage.sql)) out.push([hash, segment, shard]);
    });
  return out;
}

/** How many pairs of the client's registry name `segment` (a delivery segment's: one per transaction). */
export async function registryPairsOf(clientId: string, segment: number): Promise<number> {
  return (await registryShardContents(clientId)).filter(([, s]) => s === segment).length;
}

/** Every pair of the client's registry as [hash, segment], read from each shard's table. */
export async function registryContents(clientId: string): Promise<[number, number][]> {
  return (await registryShardContents(clientId)).map(([hash, segment]): [number, number] => [hash, segment]);
}

/** Empties every shard of the client's registry. */
export async function clearRegistry(clientId: string): Promise<void> {
  const shards = await shardsOf(clientId);
  for (let shard = 0; shard < shards; shard++)
    await runInDurableObject(shardStub(clientId, shard), async (_instance, state) => {
      clearPairs(state.storage.sql);
    });
}

export interface Reads {
  r2: number;
  registry: number;
}

/**
 * Counts what the client's object reads while it answers: R2 gets and archive-registry stubs (one
 * call each), through wrappers put on the object's own bindings.
 */
export async function countReads(api: Integrator): Promise<Reads> {
  const counted: Reads = { r2: 0, registry: 0 };
  await runInDurableObject(ledgerStub(api.client.clientId), async (instance) => {
    const bindings = (instance as unknown as { env: Record<string, unknown> }).env;
    const wrap = <T extends object>(target: T, method: string, key: keyof Reads): T =>
      new Proxy(target, {
        get(t, p) {
          const value = Reflect.get(t, p) as unknown;
          if (typeof value !== 'function') return value;
          if (p !== method) return value.bind(t);
          return (...args: unknown[]) => {
            counted[key] += 1;
            return value.apply(t, args);
          };
        },
      });
    bindings.ARCHIVE = wrap(bindings.ARCHIVE as R2Bucket, 'get', 'r2');
    bindings.ARCHIVE_REGISTRY = wrap(
      bindings.ARCHIVE_REGISTRY as DurableObjectNamespace,
      'getByName',
      'registry',
    );
  });
  return counted;
}
