/**
 * The `audit_outbox` table: operators' audit records of changes made in this object, kept in the
 * change's own transaction until D1's trail has them (docs/contract.md, Operators and the audit
 * trail).
 */
import { inArray } from 'drizzle-orm';
import type { AuditRow } from '../../src/db/audit';
import type { LedgerDb } from './db';
import { auditOutbox } from './schema';

export function keepAudit(db: LedgerDb, record: AuditRow): void {
  db.insert(auditOutbox)
    .values({ id: record.id as string, record })
    .run();
}

export function pendingAudit(db: LedgerDb, limit: number): AuditRow[] {
  return db
    .select()
    .from(auditOutbox)
    .limit(limit)
    .all()
    .map((row) => row.record as AuditRow);
}

export function dropAudit(db: LedgerDb, ids: string[]): void {
  if (ids.length > 0) db.delete(auditOutbox).where(inArray(auditOutbox.id, ids)).run();
}
