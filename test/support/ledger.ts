/** Direct reads of a client's Durable Object storage, for assertions the API cannot make. */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

export function ledgerStub(clientId: string) {
  return env.CLIENT_LEDGER.getByName(clientId);
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
