/**
 * GET /disputes (docs/contract.md, Disputes): disputed Cash-Ins whatever their age. The page's keys
 * come from cash-in-store.ts disputePage (hot and archived together); an archived one's view is read
 * from its segment, as GET /cash-in/{id} reads it.
 */
import { cashInView } from '../../../src/domain/cash-in';
import type { PageResult } from '../../../src/domain/pagination';
import { findCashInAnywhere } from '../archive/archive-reads';
import { disputePage } from '../cash-in/cash-in-store';
import type { LedgerContext } from '../context';
import type { PageInput } from './keyset';
import type { ListedItem } from './transaction-queries';

export async function listDisputePage(
  ctx: LedgerContext,
  input: PageInput,
  status: string | undefined,
): Promise<PageResult<ListedItem>> {
  const page = disputePage(ctx, input, status);
  const items: ListedItem[] = [];
  for (const item of page.items) {
    if ('json' in item.row) {
      items.push({ row: item.row.json, time: item.time, seq: item.seq });
      continue;
    }
    const row = await findCashInAnywhere(ctx, item.row.archived);
    if (!row) throw new Error(`an archived dispute's Cash-In is missing: ${item.row.archived}`);
    items.push({ row: JSON.stringify(cashInView(row)), time: item.time, seq: item.seq });
  }
  return { ...page, items };
}
