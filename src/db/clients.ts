/** D1 queries for clients and their account directory. */
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { accounts, clients } from './schema';

export type ClientRow = typeof clients.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;

export const d1 = (env: Env) => drizzle(env.DB);

export async function findClient(env: Env, clientId: string): Promise<ClientRow | undefined> {
  return d1(env).select().from(clients).where(eq(clients.id, clientId)).get();
}

export async function listClientAccounts(env: Env, clientId: string): Promise<AccountRow[]> {
  return d1(env).select().from(accounts).where(eq(accounts.clientId, clientId)).all();
}

export async function insertClient(env: Env, client: ClientRow, rows: AccountRow[]): Promise<void> {
  const db = d1(env);
  await db.batch([db.insert(clients).values(client), ...rows.map((row) => db.insert(accounts).values(row))]);
}

export async function updateClient(
  env: Env,
  clientId: string,
  changes: Partial<Omit<ClientRow, 'id'>>,
): Promise<ClientRow | undefined> {
  return d1(env).update(clients).set(changes).where(eq(clients.id, clientId)).returning().get();
}
