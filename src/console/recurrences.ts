/**
 * The console's view of a client's Pix Automático recurrences (docs/contract.md, Pix Automático):
 * each one's state, amount rules, frequency and its next charge, the due date and the day its
 * 10-to-2-day window opens, in the console's money and date style.
 */
import type { RecurrenceView } from '../../durable-objects/ledger/recurrence/recurrence-ops';
import { chargeWindow } from '../domain/recurrence';
import { brlFromReais, brtDay } from './format';
import { esc } from './html';

function amountRule(r: RecurrenceView): string {
  if (r.amount !== undefined) return `${brlFromReais(r.amount)} fixed`;
  const floor = r.minimumAmount === undefined ? 'no minimum' : `from ${brlFromReais(r.minimumAmount)}`;
  const ceiling =
    r.payerMaximumAmount === undefined ? '' : `, payer's maximum ${brlFromReais(r.payerMaximumAmount)}`;
  return `variable, ${floor}${ceiling}`;
}

function nextCharge(r: RecurrenceView): { due: string; opens: string } {
  if (r.nextDueDate === undefined) return { due: '—', opens: '—' };
  return { due: brtDay(r.nextDueDate), opens: brtDay(chargeWindow(r.nextDueDate).from) };
}

export function recurrencesSection(clientName: string, recurrences: readonly RecurrenceView[]): string {
  const rows = recurrences
    .map((r) => {
      const next = nextCharge(r);
      const state = r.cancelledBy === undefined ? r.status : `${r.status} by ${r.cancelledBy}`;
      return `<tr data-recurrence-id="${esc(r.recurrenceId)}">
<td data-label="Recurrence" class="mono">${esc(r.recurrenceId)}<br><span class="muted">${esc(r.externalReference)}</span></td>
<td data-label="State" data-field="status">${esc(state)}</td>
<td data-label="Amount" data-field="amount">${esc(amountRule(r))}</td>
<td data-label="Frequency" data-field="frequency">${esc(r.frequency)}${r.retryPolicy === 'NONE' ? '' : ' · retries'}</td>
<td data-label="Next due date" data-field="next-due">${next.due}</td>
<td data-label="Window opens" data-field="window-opens">${next.opens}</td>
</tr>`;
    })
    .join('\n');
  return `<section class="card" id="recurrences">
<h2>Pix Automático · ${esc(clientName)}</h2>
<p class="muted">Latest first (up to 10). A cycle is charged from its window's opening, 10 days before its due date,
until 2 days before (America/Sao_Paulo); each charge is an ordinary Cash-In.</p>
${
  recurrences.length === 0
    ? '<p class="muted">No recurrences yet.</p>'
    : `<div class="scroll"><table>
<thead><tr><th>Recurrence</th><th>State</th><th>Amount</th><th>Frequency</th><th>Next due date</th><th>Window opens</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`
}
</section>`;
}
