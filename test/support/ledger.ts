/** A client's Durable Object: its stub, its ledger's view, and raw SQL for the few tests that need it. */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { LedgerContext } from '../../durable-objects/ledger/ledger-context';

/** Untyped on purpose: the RPC-typed stub makes runInDurableObject's types explode. */
export function ledgerStub(clientId: string): DurableObjectStub {
  return env.CLIENT_LEDGER.getByName(clientId) as unknown as DurableObjectStub;
}

/**
 * Raw SQL on the object's storage: only for a test that corrupts or inspects storage on purpose (crash,
 * fuzz, storage-format tests). Everything else reads through ledger-reads.ts and stages moments through
 * ledger-writes.ts; `npm run check:structure` counts the test files that use raw SQL.
 */
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

/** SQLite's plan for one of a store's statements (its text built by the store), one line per step. */
export async function queryPlan(clientId: string, statement: string, ...binds: unknown[]): Promise<string> {
  const rows = await runInDurableObject(ledgerStub(clientId), (_instance, state) =>
    state.storage.sql.exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`, ...binds).toArray(),
  );
  return rows.map((r) => r.detail).join('\n');
}

/** The ledger's view of a ClientLedger instance (runInDurableObject), for tests that run an operation module directly. */
export function ledgerContextOf(instance: unknown): LedgerContext {
  return (instance as { ledgerContext(): LedgerContext }).ledgerContext();
}
