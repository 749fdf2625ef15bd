/**
 * Storage broken on purpose, for tests of what the Worker answers when a store fails: a table renamed
 * away, so every statement on it throws, then put back. One home for it, next to sqlRows in ledger.ts
 * (the two raw-SQL tools `npm run check:structure` allows outside the listed test files).
 */
import { env } from 'cloudflare:workers';
import { sqlRows } from './ledger';

/** Runs `during` while the client's ledger has no table `table`, and puts it back whatever happens. */
export async function withLedgerTableGone<T>(
  clientId: string,
  table: string,
  during: () => Promise<T>,
): Promise<T> {
  await sqlRows(clientId, `ALTER TABLE ${table} RENAME TO ${table}_broken`);
  try {
    return await during();
  } finally {
    await sqlRows(clientId, `ALTER TABLE ${table}_broken RENAME TO ${table}`);
  }
}

/** The same for a table of D1. */
export async function withD1TableGone<T>(table: string, during: () => Promise<T>): Promise<T> {
  await env.DB.exec(`ALTER TABLE ${table} RENAME TO ${table}_away`);
  try {
    return await during();
  } finally {
    await env.DB.exec(`ALTER TABLE ${table}_away RENAME TO ${table}`);
  }
}
