/** The console's view of a client's latest Cash-Out batches: each batch's items counted by status. */
import type { CashOutBatchView } from '../../durable-objects/ledger/cash-out/cash-out-batch-ops';
import { brlFromReais, count } from './format';
import { brtTime, esc } from './html';

const STATUSES = ['PROCESSING', 'PENDING', 'COMPLETED', 'CANCELLED', 'REFUNDED'] as const;

export function batchesSection(clientName: string, batches: readonly CashOutBatchView[]): string {
  const rows = batches
    .map(
      (b) => `<tr data-batch-id="${esc(b.batchId)}">
<td data-label="Batch" class="mono">${esc(b.batchId)}</td>
<td data-label="Created">${brtTime(b.createdAt)}</td>
<td data-label="Items">${count(b.count)}</td>
<td data-label="Amount">${brlFromReais(b.amount)}</td>
${STATUSES.map((s) => `<td data-label="${s}" data-status="${s}">${count(b.byStatus[s])}</td>`).join('')}
</tr>`,
    )
    .join('\n');
  return `<section class="card" id="batches">
<h2>Cash-Out batches · ${esc(clientName)}</h2>
<p class="muted">Latest first (up to 10). Each item is an ordinary Cash-Out: its events are among the deliveries above.</p>
${
  batches.length === 0
    ? '<p class="muted">No batches yet.</p>'
    : `<div class="scroll"><table>
<thead><tr><th>Batch</th><th>Created</th><th>Items</th><th>Amount</th>${STATUSES.map((s) => `<th>${s}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table></div>`
}
</section>`;
}
