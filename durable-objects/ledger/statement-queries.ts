/**
 * Reads over the ledger: an account's statement as a cursor list (spec §4.12) and the balances of
 * every account now or at an instant (decisions §5). The statement is keyset-paginated on
 * (created_at, seq) over the `ledger_account_time_idx` index, so entries sharing one millisecond
 * keep their posting order.
 */
import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { type Order, type PageResult, type Position, planPage, shapePage } from '../../src/domain/pagination';
import { failure, type OperationResult, success } from '../../src/domain/result';
import {
  type AccountView,
  cutoffDetail,
  type StatementItem,
  statementCutoff,
  statementItem,
} from '../../src/domain/statement';
import type { AccountBalance } from '../../src/domain/wallet';
import { partnerByIspb } from '../../src/partners/catalog';
import type { LedgerContext } from './context';
import { type AccountRow, account, available } from './ledger';
import { accounts, ledgerEntries } from './schema';

export interface StatementInput {
  number: string;
  from: number;
  to: number;
  limit: number;
  order: Order;
  position?: Position;
}

export interface StatementPage extends PageResult<StatementItem & { time: number; seq: number }> {
  account: AccountView;
}

export function accountView(row: AccountRow): AccountView {
  return {
    number: row.number,
    branch: row.branch,
    type: row.type,
    bank: { ispb: row.ispb, name: partnerByIspb(row.ispb)?.name ?? null },
  };
}

export function accountNotFound() {
  return failure({ code: 'ACCOUNT_NOT_FOUND', detail: 'No account with this number belongs to the client' });
}

export function readStatement(ctx: LedgerContext, input: StatementInput): OperationResult<StatementPage> {
  const row = account(ctx.db, input.number);
  if (!row) return accountNotFound();
  const startDate = ctx.profile.statementStartDate;
  if (input.from < statementCutoff(startDate)) {
    return failure({ code: 'LIST_FROM_BEFORE_CUTOFF', detail: cutoffDetail(startDate, 'Statement data') });
  }
  const plan = planPage(input.order, input.position);
  const scope = and(
    eq(ledgerEntries.accountNumber, row.number),
    gte(ledgerEntries.createdAt, input.from),
    lte(ledgerEntries.createdAt, input.to),
  );
  const beyond =
    plan.comparison && input.position
      ? sql`(${ledgerEntries.createdAt}, ${ledgerEntries.seq}) ${sql.raw(plan.comparison)} (${input.position.time}, ${input.position.seq})`
      : undefined;
  const dir = plan.scan === 'ASC' ? asc : desc;
  const rows = ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(scope, beyond))
    .orderBy(dir(ledgerEntries.createdAt), dir(ledgerEntries.seq))
    .limit(input.limit + 1)
    .all();
  const page = shapePage(
    rows.map((r) => ({
      ...statementItem({ ...r, direction: r.direction as 'CREDIT' | 'DEBIT' }),
      time: r.createdAt,
      seq: r.seq,
    })),
    input.limit,
    input.position,
  );
  return success(200, { account: accountView(row), ...page });
}

/** Ledger balance of an account at an instant: the last balanceAfter at or before it. */
function balanceAt(ctx: LedgerContext, number: string, at: number): number {
  const last = ctx.db
    .select({ balanceAfter: ledgerEntries.balanceAfter })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.accountNumber, number), lte(ledgerEntries.createdAt, at)))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.seq))
    .limit(1)
    .get();
  return last?.balanceAfter ?? 0;
}

export interface Balances {
  asOf: number;
  accounts: AccountBalance[];
}

/**
 * Every account of the client in onboarding order (the client's partner order). Without `at`:
 * the current ledger balance and what is available; with `at`: the ledger balance at that instant
 * (an instant in the future reads as now). Before the statement start date there is no ledger to
 * read from: 422 RETROACTIVE_BALANCE_NOT_IMPLEMENTED.
 */
export function readBalances(ctx: LedgerContext, at: number | undefined): OperationResult<Balances> {
  const startDate = ctx.profile.statementStartDate;
  if (at !== undefined && at < statementCutoff(startDate)) {
    return failure({
      code: 'RETROACTIVE_BALANCE_NOT_IMPLEMENTED',
      detail: cutoffDetail(startDate, 'Balance history'),
    });
  }
  const now = Date.now();
  const asOf = at === undefined ? now : Math.min(at, now);
  const rows = ctx.db.select().from(accounts).orderBy(sql`rowid`).all();
  return success(200, {
    asOf,
    accounts: rows.map((a) => ({
      number: a.number,
      branch: a.branch,
      type: a.type,
      ispb: a.ispb,
      bank: partnerByIspb(a.ispb)?.name ?? a.ispb,
      ...(at === undefined
        ? { balance: a.balance, available: available(ctx.db, a.number) }
        : { balance: balanceAt(ctx, a.number, asOf) }),
    })),
  });
}
