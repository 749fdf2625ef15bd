/**
 * What a test changes in D1 by hand to stage a moment (an incident opened, a client deleted, a receipt
 * as an older version kept it), through drizzle's query builder over D1's schema (src/db/schema.ts):
 * no SQL text, so a renamed column stays in the schema. Reads go through the stores of src/db.
 */
import { env } from 'cloudflare:workers';
import { eq, inArray, like } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { accounts, clients, healthEvidence, healthIncidents, unappliedReceipts } from '../../src/db/schema';

const d1 = () => drizzle(env.DB);

export const addIncident = (row: typeof healthIncidents.$inferInsert) =>
  d1().insert(healthIncidents).values(row).run();

/** An incident and its evidence. */
export const dropIncident = (id: string) =>
  d1().batch([
    d1().delete(healthEvidence).where(eq(healthEvidence.incidentId, id)),
    d1().delete(healthIncidents).where(eq(healthIncidents.id, id)),
  ]);

/** Every incident naming this client among the affected, and their evidence. */
export async function dropIncidentsOf(clientId: string): Promise<void> {
  const ids = await d1()
    .select({ id: healthIncidents.id })
    .from(healthIncidents)
    .where(like(healthIncidents.affectedClientIds, `%${clientId}%`))
    .all();
  for (const { id } of ids) await dropIncident(id);
}

export const deactivateApplicationToken = (clientId: string) =>
  d1().update(clients).set({ applicationTokenActive: false }).where(eq(clients.id, clientId)).run();

/** A client and its accounts gone from D1 (its ledger stays). */
export const deleteClient = (clientId: string) =>
  d1().batch([
    d1().delete(accounts).where(eq(accounts.clientId, clientId)),
    d1().delete(clients).where(eq(clients.id, clientId)),
  ]);

/** Changes partner-held receipts as an older version kept them (no next read, another receipt time). */
export const setReceipts = (endToEndIds: string[], changes: Partial<typeof unappliedReceipts.$inferInsert>) =>
  d1().update(unappliedReceipts).set(changes).where(inArray(unappliedReceipts.endToEndId, endToEndIds)).run();
