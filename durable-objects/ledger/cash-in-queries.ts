/** Reads over a client's Cash-Ins: the cursor list and the summary (spec §4.7–4.8). */
import { and, asc, desc, gte, lte, sql } from 'drizzle-orm';
import { type CashInView, cashInView } from '../../src/domain/cash-in';
import { type Order, type PageResult, type Position, planPage, shapePage } from '../../src/domain/pagination';
import type { LedgerDb } from './db';
import { cashIns } from './schema';

export interface ListInput {
  from: number;
  to: number;
  limit: number;
  order: Order;
  position?: Position;
}

export function listCashIns(
  db: LedgerDb,
  input: ListInput,
): PageResult<CashInView & { time: number; seq: number }> {
  const plan = planPage(input.order, input.position);
  const inPeriod = and(gte(cashIns.requestedAt, input.from), lte(cashIns.requestedAt, input.to));
  const after =
    plan.comparison && input.position
      ? sql`(${cashIns.requestedAt}, ${cashIns.seq}) ${sql.raw(plan.comparison)} (${input.position.time}, ${input.position.seq})`
      : undefined;
  const dir = plan.scan === 'ASC' ? asc : desc;
  const rows = db
    .select()
    .from(cashIns)
    .where(after ? and(inPeriod, after) : inPeriod)
    .orderBy(dir(cashIns.requestedAt), dir(cashIns.seq))
    .limit(input.limit + 1)
    .all();
  return shapePage(
    rows.map((r) => ({ ...cashInView(r), time: r.requestedAt, seq: r.seq })),
    input.limit,
    input.position,
  );
}

export interface Bucket {
  count: number;
  amount: number;
}

export interface SettlementBucket extends Bucket {
  ispb: string;
  bank: string;
}

/** Status buckets in centavos; `pending` joins AWAITING_PAYMENT and EXPIRED (spec §4.8). */
export function summarizeCashIns(db: LedgerDb, from: number, to: number) {
  const inPeriod = and(gte(cashIns.requestedAt, from), lte(cashIns.requestedAt, to));
  const byStatus = db
    .select({
      status: cashIns.status,
      count: sql<number>`count(*)`,
      amount: sql<number>`sum(${cashIns.amount})`,
    })
    .from(cashIns)
    .where(inPeriod)
    .groupBy(cashIns.status)
    .all();
  const settlement = db
    .select({
      ispb: sql<string>`json_extract(${cashIns.settlement}, '$.ispb')`,
      bank: sql<string>`json_extract(${cashIns.settlement}, '$.bank')`,
      count: sql<number>`count(*)`,
      amount: sql<number>`sum(${cashIns.amount})`,
    })
    .from(cashIns)
    .where(and(inPeriod, sql`${cashIns.status} = 'PAID'`))
    .groupBy(sql`json_extract(${cashIns.settlement}, '$.ispb')`)
    .all();
  return { byStatus, settlement };
}
