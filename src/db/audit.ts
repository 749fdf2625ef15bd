/**
 * D1 statements on the audit trail (docs/storage-schema.md): appends and newest-first pages, never
 * an update or a delete (the table's triggers refuse both). A change stored in D1 batches its
 * record with its own statements (`auditInsert`); ./operators.ts is the model.
 */
import { and, desc, eq, gte, lt, lte, or, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { type Actor, actorView } from '../domain/operators';
import { auditRecords } from './schema';

const d1 = (env: Env) => drizzle(env.DB);

export type AuditRow = typeof auditRecords.$inferInsert;
export type StoredAudit = typeof auditRecords.$inferSelect;

export const auditInsert = (env: Env, row: AuditRow) => d1(env).insert(auditRecords).values(row);

export async function appendAudit(env: Env, row: AuditRow): Promise<void> {
  await auditInsert(env, row).run();
}

/** Records a ClientLedger kept with its change: a record D1 already has (by id) is skipped. */
export async function appendAuditOnce(env: Env, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const db = d1(env);
  const [first, ...rest] = rows.map((row) => db.insert(auditRecords).values(row).onConflictDoNothing());
  if (first) await db.batch([first, ...rest]);
}

export interface AuditFilter {
  from?: number;
  to?: number;
  /** An operatorId or an email. */
  actor?: string;
  action?: string;
}

export async function listAudit(
  env: Env,
  filter: AuditFilter,
  limit: number,
  afterSeq?: number,
): Promise<{ items: StoredAudit[]; next?: number }> {
  const where: (SQL | undefined)[] = [
    filter.from !== undefined ? gte(auditRecords.at, filter.from) : undefined,
    filter.to !== undefined ? lte(auditRecords.at, filter.to) : undefined,
    filter.actor !== undefined
      ? or(eq(auditRecords.operatorId, filter.actor), eq(auditRecords.email, filter.actor))
      : undefined,
    filter.action !== undefined ? eq(auditRecords.action, filter.action) : undefined,
    afterSeq !== undefined ? lt(auditRecords.seq, afterSeq) : undefined,
  ];
  const rows = await d1(env)
    .select()
    .from(auditRecords)
    .where(and(...where))
    .orderBy(desc(auditRecords.seq))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page, ...(rows.length > limit && last && { next: last.seq }) };
}

/** One record: who, what, on what, before and after (never a secret), the result, the request id. */
export function auditRow(
  requestId: string,
  actor: Omit<Actor, 'role'>,
  action: string,
  target: string,
  result: string,
  note: { before?: unknown; after?: unknown } = {},
): AuditRow {
  const who = actorView(actor);
  return {
    id: `aud_${crypto.randomUUID()}`,
    at: Date.now(),
    actorKind: who.kind,
    operatorId: who.operatorId ?? null,
    email: who.email ?? null,
    action,
    target,
    before: note.before ?? null,
    after: note.after ?? null,
    result,
    requestId,
  };
}
