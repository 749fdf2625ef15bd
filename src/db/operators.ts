/**
 * D1 statements on operators: their identities, roles and token digests (docs/storage-schema.md).
 * Every write is batched with its audit record (./audit.ts), so the change and its trail commit
 * together.
 */
import { asc, eq } from 'drizzle-orm';
import type { Role } from '../domain/operators';
import { type AuditRow, auditInsert } from './audit';
import { d1 } from './clients';
import { operators } from './schema';

export type OperatorRow = typeof operators.$inferSelect;

export async function operatorByTokenHash(env: Env, tokenHash: string): Promise<OperatorRow | undefined> {
  return d1(env).select().from(operators).where(eq(operators.tokenHash, tokenHash)).get();
}

export async function operatorByEmail(env: Env, email: string): Promise<OperatorRow | undefined> {
  return d1(env).select().from(operators).where(eq(operators.email, email)).get();
}

export async function operatorById(env: Env, id: string): Promise<OperatorRow | undefined> {
  return d1(env).select().from(operators).where(eq(operators.id, id)).get();
}

export async function listOperators(env: Env): Promise<OperatorRow[]> {
  return d1(env).select().from(operators).orderBy(asc(operators.createdAt), asc(operators.id)).all();
}

/** The operator and its audit record in one batch; false when the email is already an operator's. */
export async function insertOperator(env: Env, row: OperatorRow, audit: AuditRow): Promise<boolean> {
  const db = d1(env);
  try {
    await db.batch([db.insert(operators).values(row), auditInsert(env, audit)]);
    return true;
  } catch (error) {
    if (/UNIQUE constraint failed: operators\.email/.test(String(error))) return false;
    throw error;
  }
}

/** Removes the operator and records it, in one batch; false when there was none. */
export async function deleteOperator(env: Env, id: string, audit: AuditRow): Promise<boolean> {
  const db = d1(env);
  const [deleted] = await db.batch([
    db.delete(operators).where(eq(operators.id, id)).returning({ id: operators.id }),
    auditInsert(env, audit),
  ]);
  return deleted.length > 0;
}

export type { Role };
