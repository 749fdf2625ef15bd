/**
 * D1 store of unapplied receipts (schema.ts `unapplied_receipts`): the operator's list of all of
 * them, and the only store of the ones no client can be named for (held by the partner), whose
 * returns the cron moves on (`nextAt`). Every write is keyed by the payment's end-to-end id.
 */
import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { MED_WINDOW_MS } from '../domain/med-recheck';
import { stagesOfStatus, type UnappliedReceipt, type UnappliedStatus } from '../domain/unapplied';
import { unappliedReceipts } from './schema';

type Row = typeof unappliedReceipts.$inferSelect;

const d1 = (env: Env) => drizzle(env.DB);

function receiptOf(row: Row): UnappliedReceipt {
  const { heldBy: _h, nextAt: _n, updatedAt: _u, ...receipt } = row;
  return receipt;
}

/**
 * A ClientLedger's receipt as it stands now: its copy here follows it (never moves back). RETURNED
 * is final; FAILED gives way only to RETURNED (the network settled it after all) or a newer FAILED.
 */
export async function mirrorUnapplied(env: Env, receipt: UnappliedReceipt, now: number): Promise<void> {
  const row = { ...receipt, heldBy: 'client' as const, nextAt: null, updatedAt: now };
  await d1(env)
    .insert(unappliedReceipts)
    .values(row)
    .onConflictDoUpdate({
      target: unappliedReceipts.endToEndId,
      set: row,
      setWhere: sql`${unappliedReceipts.stage} <> 'RETURNED'
        AND (${unappliedReceipts.stage} <> 'FAILED' OR excluded.stage IN ('RETURNED', 'FAILED'))`,
    });
}

/** Books a receipt no client can be named for; false if that Pix is booked already. */
export async function bookPartnerReceipt(env: Env, receipt: UnappliedReceipt, now: number): Promise<boolean> {
  const result = await d1(env)
    .insert(unappliedReceipts)
    .values({ ...receipt, heldBy: 'partner', nextAt: now, updatedAt: now })
    .onConflictDoNothing()
    .run();
  return (result.meta.changes ?? 0) > 0;
}

export async function findUnapplied(env: Env, endToEndId: string): Promise<UnappliedReceipt | undefined> {
  const row = await d1(env)
    .select()
    .from(unappliedReceipts)
    .where(eq(unappliedReceipts.endToEndId, endToEndId))
    .get();
  return row && receiptOf(row);
}

/** Partner-held receipts whose return is due for its next step (a FAILED one's next read included). */
export async function duePartnerReceipts(env: Env, now: number, limit: number): Promise<UnappliedReceipt[]> {
  const rows = await d1(env)
    .select()
    .from(unappliedReceipts)
    .where(and(isNotNull(unappliedReceipts.nextAt), lte(unappliedReceipts.nextAt, now)))
    .orderBy(asc(unappliedReceipts.nextAt))
    .limit(limit)
    .all();
  return rows.map(receiptOf);
}

/**
 * Partner-held FAILED returns inside the MED window with no read scheduled (recorded before a FAILED
 * return was read again): each gets its next read now. Only those match, so this is a no-op once done.
 */
export async function scheduleUnreadFailedReturns(env: Env, now: number): Promise<number> {
  const result = await d1(env)
    .update(unappliedReceipts)
    .set({ nextAt: now, updatedAt: now })
    .where(
      and(
        eq(unappliedReceipts.heldBy, 'partner'),
        eq(unappliedReceipts.stage, 'FAILED'),
        isNull(unappliedReceipts.nextAt),
        gt(unappliedReceipts.receivedAt, now - MED_WINDOW_MS),
      ),
    )
    .run();
  return result.meta.changes ?? 0;
}

/** A partner-held receipt's return moved on, from the stage it was read in (so a racing run is a no-op). */
export async function advancePartnerReceipt(
  env: Env,
  from: UnappliedReceipt,
  to: Partial<Pick<Row, 'stage' | 'returnEndToEndId' | 'returnedAt' | 'failure'>>,
  nextAt: number | null,
  now: number,
): Promise<void> {
  await d1(env)
    .update(unappliedReceipts)
    .set({ ...to, nextAt, updatedAt: now })
    .where(
      and(
        eq(unappliedReceipts.endToEndId, from.endToEndId),
        eq(unappliedReceipts.stage, from.stage),
        eq(unappliedReceipts.heldBy, 'partner'),
      ),
    );
}

/**
 * What partner-held receipts of a partner still hold (not returned): the partner's suspense balance,
 * and of it what the partner took to return and has not settled yet (SENT).
 */
export async function partnerSuspenseHeld(
  env: Env,
  ispb: string,
): Promise<{ balance: number; inFlightOut: number }> {
  const row = await d1(env)
    .select({
      balance: sql<number>`coalesce(sum(${unappliedReceipts.amount}), 0)`,
      inFlightOut: sql<number>`coalesce(sum(CASE ${unappliedReceipts.stage} WHEN 'SENT' THEN ${unappliedReceipts.amount} ELSE 0 END), 0)`,
    })
    .from(unappliedReceipts)
    .where(
      and(
        eq(unappliedReceipts.ispb, ispb),
        eq(unappliedReceipts.heldBy, 'partner'),
        sql`${unappliedReceipts.stage} <> 'RETURNED'`,
      ),
    )
    .get();
  return { balance: row?.balance ?? 0, inFlightOut: row?.inFlightOut ?? 0 };
}

/** Partner-held receipts of a partner booked in [from, to) by payment time (the reconciliation's side). */
export async function partnerReceiptsBetween(
  env: Env,
  ispb: string,
  from: number,
  to: number,
): Promise<UnappliedReceipt[]> {
  const rows = await d1(env)
    .select()
    .from(unappliedReceipts)
    .where(
      and(
        eq(unappliedReceipts.heldBy, 'partner'),
        eq(unappliedReceipts.ispb, ispb),
        gte(unappliedReceipts.receivedAt, from),
        lt(unappliedReceipts.receivedAt, to),
      ),
    )
    .all();
  return rows.map(receiptOf);
}

export interface UnappliedFilter {
  status?: UnappliedStatus;
  ispb?: string;
  from?: number;
  to?: number;
}

/** A page of receipts, newest first; `after` is the last (receivedAt, rowid) of the page before. */
export async function listUnapplied(
  env: Env,
  filter: UnappliedFilter,
  limit: number,
  after?: { time: number; seq: number },
): Promise<{ items: UnappliedReceipt[]; next?: { time: number; seq: number } }> {
  const rowid = sql<number>`${unappliedReceipts}.rowid`;
  const where: (SQL | undefined)[] = [
    filter.status && inArray(unappliedReceipts.stage, stagesOfStatus(filter.status)),
    filter.ispb !== undefined ? eq(unappliedReceipts.ispb, filter.ispb) : undefined,
    filter.from !== undefined ? gte(unappliedReceipts.receivedAt, filter.from) : undefined,
    filter.to !== undefined ? lte(unappliedReceipts.receivedAt, filter.to) : undefined,
    after &&
      or(
        lt(unappliedReceipts.receivedAt, after.time),
        and(eq(unappliedReceipts.receivedAt, after.time), sql`${rowid} < ${after.seq}`),
      ),
  ];
  const rows = await d1(env)
    .select({ row: unappliedReceipts, seq: rowid })
    .from(unappliedReceipts)
    .where(and(...where))
    .orderBy(desc(unappliedReceipts.receivedAt), desc(rowid))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => receiptOf(r.row)),
    ...(rows.length > limit && last && { next: { time: last.row.receivedAt, seq: last.seq } }),
  };
}

/** When the cron next reads a partner-held receipt's return (null: nothing to read), for the tests' assertions. */
export async function unappliedNextAt(env: Env, endToEndId: string): Promise<number | null | undefined> {
  const row = await drizzle(env.DB)
    .select({ nextAt: unappliedReceipts.nextAt })
    .from(unappliedReceipts)
    .where(eq(unappliedReceipts.endToEndId, endToEndId))
    .get();
  return row?.nextAt;
}
