/**
 * How the rest of the Worker reaches a client's ClientLedger (an RPC stub; the class is imported
 * for its type only).
 */
import type { ArchiveRegistry } from './archive-registry';
import type { ClientLedger } from './client-ledger';

/** The client's Durable Object. */
export function ledgerOf(env: Env, clientId: string) {
  return (env.CLIENT_LEDGER as DurableObjectNamespace<ClientLedger>).getByName(clientId);
}

/** One shard of a client's archive registry (archive-registry.ts). */
export function archiveRegistryOf(env: Env, clientId: string, shard: number) {
  return (env.ARCHIVE_REGISTRY as DurableObjectNamespace<ArchiveRegistry>).getByName(`${clientId}/${shard}`);
}
