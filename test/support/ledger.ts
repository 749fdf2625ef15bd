/** Direct reads of a client's Durable Object storage, for assertions the API cannot make. */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { LedgerContext } from '../../durable-objects/ledger/ledger-context';

/** Untyped on purpose: the RPC-typed stub makes runInDurableObject's types explode. */
export function ledgerStub(clientId: string): DurableObjectStub {
  return env.CLIENT_LEDGER.getByName(clientId) as unknown as DurableObjectStub;
}

export function sqlRows<T = Record<string, unknown>>(
  clientId: string,
  query: string,
  ...binds: unknown[]
): Promise<T[]> {
  return runInDurableObject(
    ledgerStub(clientId),
    (_instance, state) => state.storage.sql.exec(query, ...binds).toArray() as T[],
  );
}

/** The ledger's view of a ClientLedger instance (runInDurableObject), for tests that run an operation module directly. */
export function ledgerContextOf(instance: unknown): LedgerContext {
  return (instance as { ledgerContext(): LedgerContext }).ledgerContext();
}
