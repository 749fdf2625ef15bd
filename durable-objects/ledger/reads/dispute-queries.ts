/**
 * GET /disputes (docs/contract.md, Disputes): disputed Cash-Ins whatever their age. The page's keys
 * come from cash-in-store.ts disputePage (hot and archived together); an archived one's view is read
 * from its segment, as GET /cash-in/{id} reads it.
 */
import { cashInView } from '../../../src/domain/cash-in';
import { findCashInAnywhere } from '../archive/archive-reads';
import { type DisputeFilter, disputePage } from '../cash-in/cash-in-store';
import type { LedgerContext } from '../ledger-context';
import type { PageInput } from './keyset';
import type { ListedItem } from './transaction-queries';

/** The page as the ledger sends lists: its items' JSON texts joined by commas, with their sort keys. */
export async function listDisputePage(ledger: LedgerContext, input: PageInput, filter: DisputeFilter) {
  const page = disputePage(ledger, input, filter);
  const items: ListedItem[] = [];
  for (const item of page.items) {
    if ('json' in item.row) {
      items.push({ row: item.row.json, time: item.time, seq: item.seq });
      continue;
    }
    const row = await findCashInAnywhere(ledger, item.row.archived);
    if (!row) throw new Error(`an archived dispute's Cash-In is missing: ${item.row.archived}`);
    items.push({ row: JSON.stringify(cashInView(row)), time: item.time, seq: item.seq });
  }
  return {
    ...page,
    items: items.map((item) => item.row).join(','),
    keys: items.map(({ time, seq }) => ({ time, seq })),
  };
}
