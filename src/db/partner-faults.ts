/**
 * D1 queries of the sandbox partners' operator-injected faults (docs/contract.md, Operator API).
 * An operator's injection or clearing commits in one batch with its audit record (./audit.ts).
 */
import { and, eq, gt, lte } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { type AuditRow, auditInsert } from './audit';
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

export async function insertFault(
  env: Env,
  row: Omit<PartnerFaultRow, 'id'>,
  audit: AuditRow,
): Promise<void> {
  const db = drizzle(env.DB);
  await db.batch([db.insert(partnerFaults).values(row), auditInsert(env, audit)]);
}

export async function deleteFaultsOf(env: Env, ispb: string, audit: AuditRow): Promise<void> {
  const db = drizzle(env.DB);
  await db.batch([db.delete(partnerFaults).where(eq(partnerFaults.ispb, ispb)), auditInsert(env, audit)]);
}
