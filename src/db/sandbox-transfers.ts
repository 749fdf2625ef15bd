/**
 * D1 queries of the sandbox partner's own books: every payment or devolution it was asked to make,
 * once per (partner, idempotency id); a repeated request only counts `requests`.
 */
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { sandboxTransfers } from './schema';

export type SandboxTransferRow = typeof sandboxTransfers.$inferSelect;

export async function recordSandboxTransfer(
  env: Env,
  row: Omit<typeof sandboxTransfers.$inferInsert, 'requests'>,
): Promise<void> {
  await drizzle(env.DB)
    .insert(sandboxTransfers)
    .values(row)
    .onConflictDoUpdate({
      target: [sandboxTransfers.ispb, sandboxTransfers.idempotencyId],
      set: { requests: sql`${sandboxTransfers.requests} + 1` },
    });
}

export async function findSandboxTransfer(
  env: Env,
  ispb: string,
  idempotencyId: string,
): Promise<SandboxTransferRow | undefined> {
  return drizzle(env.DB)
    .select()
    .from(sandboxTransfers)
    .where(and(eq(sandboxTransfers.ispb, ispb), eq(sandboxTransfers.idempotencyId, idempotencyId)))
    .get();
}
