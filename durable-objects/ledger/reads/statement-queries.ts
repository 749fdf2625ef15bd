/**
 * Reads over the ledger: an account's statement as a cursor list (docs/contract.md, Statement and balance)
 * and the balances of every account now or at an instant (docs/contract.md, Statement and balance). The
 * statement is keyset-paginated on (created_at, seq) over the `ledger_account_time_idx` index, so entries
 * sharing one millisecond keep their posting order; archived entries merge in by the same key
 * (archive-lists.ts).
 */
import type { Order, PageResult, Position } from '../../../src/domain/pagination';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import {
  type AccountView,
  cutoffDetail,
  type StatementItem,
  statementCutoff,
  statementItem,
} from '../../../src/domain/statement';
import type { AccountBalance } from '../../../src/domain/wallet';
import { partnerName } from '../../../src/partners/config';
import { mergeArchived } from '../archive/archive-lists';
import { readSegment } from '../archive/archive-reads';
import { ledgerSource } from '../archive/archive-sources';
import { type AccountRow, account, available, blockedAmount } from '../ledger/ledger';
import { allAccounts, hotEntryRows } from '../ledger/ledger-store';
import type { LedgerContext } from '../ledger-context';
import { type PageInput, shapeRows } from './keyset';

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

export function accountView(env: unknown, row: AccountRow): AccountView {
  return {
    number: row.number,
    branch: row.branch,
    type: row.type,
    bank: { ispb: row.ispb, name: partnerName(env, row.ispb) },
  };
}

export function accountNotFound() {
  return failure({ code: 'ACCOUNT_NOT_FOUND', detail: 'No account with this number belongs to the client' });
}

/** The account's entries of a page, hot and archived merged in statement order (limit + 1 rows). */
async function entryRows(ledger: LedgerContext, number: string, input: PageInput) {
  const hot = hotEntryRows(ledger.db, number, input);
  return mergeArchived(ledger, ledgerSource(number), input, hot, (key) => readSegment(ledger.env, key));
}

export async function readStatement(
  ledger: LedgerContext,
  input: StatementInput,
): Promise<OperationResult<StatementPage>> {
  const row = account(ledger.db, input.number);
  if (!row) return accountNotFound();
  const startDate = ledger.profile.statementStartDate;
  if (input.from < statementCutoff(startDate)) {
    return failure({ code: 'LIST_FROM_BEFORE_CUTOFF', detail: cutoffDetail(startDate, 'Statement data') });
  }
  const rows = await entryRows(ledger, row.number, input);
  const page = shapeRows(rows, input, (r) =>
    statementItem({ ...r, direction: r.direction as 'CREDIT' | 'DEBIT' }),
  );
  return success(200, { account: accountView(ledger.env, row), ...page });
}

/**
 * Ledger balance of an account at an instant: the last balanceAfter at or before it, hot or archived
 * (a one-row newest-first page ending at `at`: opens at most the segment that holds it).
 */
async function balanceAt(ledger: LedgerContext, number: string, at: number): Promise<number> {
  const rows = await entryRows(ledger, number, { from: 0, to: at, limit: 1, order: 'desc' });
  return rows[0]?.row.balanceAfter ?? 0;
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
export async function readBalances(
  ledger: LedgerContext,
  at: number | undefined,
): Promise<OperationResult<Balances>> {
  const startDate = ledger.profile.statementStartDate;
  if (at !== undefined && at < statementCutoff(startDate)) {
    return failure({
      code: 'RETROACTIVE_BALANCE_NOT_IMPLEMENTED',
      detail: cutoffDetail(startDate, 'Balance history'),
    });
  }
  const now = Date.now();
  const asOf = at === undefined ? now : Math.min(at, now);
  const rows = allAccounts(ledger.db);
  const history = new Map<string, number>();
  if (at !== undefined) for (const a of rows) history.set(a.number, await balanceAt(ledger, a.number, asOf));
  return success(200, {
    asOf,
    accounts: rows.map((a) => ({
      number: a.number,
      branch: a.branch,
      type: a.type,
      ispb: a.ispb,
      bank: partnerName(ledger.env, a.ispb) ?? a.ispb,
      ...(at === undefined
        ? {
            balance: a.balance,
            available: available(ledger.db, a.number),
            blocked: blockedAmount(ledger.db, a.number),
          }
        : { balance: history.get(a.number) ?? 0 }),
    })),
  });
}
