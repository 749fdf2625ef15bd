/** The ClientLedger's audit outbox (docs/storage-schema.md); its store is ./audit-outbox-store.ts. */
import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Operators' audit records of changes made in this object, written in the change's own transaction
 * and forwarded to D1's trail right after (again by every sweep until D1 has taken them).
 */
export const auditOutbox = sqliteTable('audit_outbox', {
  id: text('id').primaryKey(),
  record: text('record', { mode: 'json' }).notNull(),
});
