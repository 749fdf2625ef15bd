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

type TransferInsert = Omit<typeof sandboxTransfers.$inferInsert, 'requests'>;

/**
 * Many transfers of one partner in one statement (the sandbox's batch payment): the rows travel as
 * one JSON parameter, so a batch is not bound by D1's 100 parameters per query.
 */
export async function recordSandboxTransfers(env: Env, ispb: string, rows: TransferInsert[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => [
      r.idempotencyId,
      r.kind,
      r.amount,
      r.outcome,
      r.failureCode ?? null,
      r.endToEndId ?? null,
      r.payeeBank ?? null,
      r.createdAt,
      r.settlesAt,
    ]),
  );
  await env.DB.prepare(
    `INSERT INTO sandbox_transfers (ispb, idempotency_id, kind, amount, outcome, failure_code,
       end_to_end_id, payee_bank, created_at, settles_at)
     SELECT ?1, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4,
       j.value ->> 5, json_extract(j.value, '$[6]'), j.value ->> 7, j.value ->> 8
     FROM json_each(?2) AS j WHERE true
     ON CONFLICT (ispb, idempotency_id) DO UPDATE SET requests = requests + 1`,
  )
    .bind(ispb, json)
    .run();
}

/** The rows of many idempotency ids of one partner, in one query. */
export async function findSandboxTransfers(
  env: Env,
  ispb: string,
  idempotencyIds: string[],
): Promise<Map<string, SandboxTransferRow>> {
  if (idempotencyIds.length === 0) return new Map();
  const { results } = await env.DB.prepare(
    `SELECT idempotency_id, kind, amount, requests, outcome, failure_code, end_to_end_id, payee_bank,
       created_at, settles_at
     FROM sandbox_transfers WHERE ispb = ?1 AND idempotency_id IN (SELECT value FROM json_each(?2))`,
  )
    .bind(ispb, JSON.stringify(idempotencyIds))
    .all<Record<string, string | number | null>>();
  return new Map(
    results.map((r) => [
      r.idempotency_id as string,
      {
        ispb,
        idempotencyId: r.idempotency_id as string,
        kind: r.kind as SandboxTransferRow['kind'],
        amount: r.amount as number,
        requests: r.requests as number,
        outcome: r.outcome as SandboxTransferRow['outcome'],
        failureCode: r.failure_code as string | null,
        endToEndId: r.end_to_end_id as string | null,
        payeeBank: r.payee_bank === null ? null : JSON.parse(r.payee_bank as string),
        createdAt: r.created_at as number,
        settlesAt: r.settles_at as number,
      },
    ]),
  );
}

/** The rows of these idempotency ids at any partner, oldest first (the tests compare the partner's books with ours). */
export async function sandboxTransfersOf(env: Env, idempotencyIds: string[]): Promise<SandboxTransferRow[]> {
  if (idempotencyIds.length === 0) return [];
  return drizzle(env.DB)
    .select()
    .from(sandboxTransfers)
    .where(
      sql`${sandboxTransfers.idempotencyId} IN (SELECT value FROM json_each(${JSON.stringify(idempotencyIds)}))`,
    )
    .orderBy(sandboxTransfers.createdAt, sandboxTransfers.idempotencyId)
    .all();
}
