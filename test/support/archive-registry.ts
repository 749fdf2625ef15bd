/**
 * A client's archive registry (durable-objects/archive-registry.ts) seen from a test: how many
 * (id hash, segment) pairs its shards hold, and every shard emptied (a registry that lost its pairs),
 * through the registry's own functions (allPairs, clearPairs).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { allPairs, clearPairs } from '../../durable-objects/archive-registry';
import { REGISTRY_SHARDS } from '../../durable-objects/ledger/archive/archive-index';

const shardStub = (clientId: string, shard: number) => env.ARCHIVE_REGISTRY.getByName(`${clientId}/${shard}`);

/** Pairs in every shard of the client's registry. */
export async function registryPairs(clientId: string): Promise<number> {
  const sizes = await Promise.all(
    Array.from({ length: REGISTRY_SHARDS }, (_, shard) => shardStub(clientId, shard).size()),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/** Every pair of the client's registry as [hash, segment], read from each shard's table. */
export async function registryContents(clientId: string): Promise<[number, number][]> {
  const out: [number, number][] = [];
  for (let shard = 0; shard < REGISTRY_SHARDS; shard++)
    await runInDurableObject(shardStub(clientId, shard), async (_instance, state) => {
      out.push(...allPairs(state.storage.sql));
    });
  return out;
}

/** Empties every shard of the client's registry. */
export async function clearRegistry(clientId: string): Promise<void> {
  for (let shard = 0; shard < REGISTRY_SHARDS; shard++)
    await runInDurableObject(shardStub(clientId, shard), async (_instance, state) => {
      clearPairs(state.storage.sql);
    });
}
