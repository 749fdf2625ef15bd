/**
 * A client's archive registry (durable-objects/archive-registry.ts) seen from a test: how many
 * (id hash, segment) pairs its shards hold, and every shard emptied (a registry that lost its pairs),
 * through the registry's own functions (allPairs, clearPairs).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { allPairs, clearPairs } from '../../durable-objects/archive-registry';
import { REGISTRY_SHARDS } from '../../durable-objects/ledger/archive/archive-index';
import type { Integrator } from './harness';
import { ledgerStub } from './ledger';

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
