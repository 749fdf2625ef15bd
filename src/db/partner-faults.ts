/** D1 queries of the sandbox partners' operator-injected faults (docs/contract.md, Operator API). */
import { and, eq, gt, lte } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { partnerFaults } from './schema';

export type PartnerFaultRow = typeof partnerFaults.$inferSelect;

/** The few faults active at `now` (the table holds operator exercises, not traffic). */
export async function faultsActiveAt(env: Env, now: number): Promise<PartnerFaultRow[]> {
  return drizzle(env.DB)
    .select()
    .from(partnerFaults)
    .where(and(lte(partnerFaults.startsAt, now), gt(partnerFaults.endsAt, now)))
    .all();
}

export async function insertFault(env: Env, row: Omit<PartnerFaultRow, 'id'>): Promise<void> {
  await drizzle(env.DB).insert(partnerFaults).values(row);
}

export async function deleteFaultsOf(env: Env, ispb: string): Promise<void> {
  await drizzle(env.DB).delete(partnerFaults).where(eq(partnerFaults.ispb, ispb));
}
