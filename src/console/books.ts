/**
 * The console's books page: unapplied receipts (money no Cash-In could take, and its return to the
 * payer) and the latest daily reconciliation reports, with their breaks and what was healed. The
 * same data as GET /admin/unapplied and GET /admin/reconciliation, read from D1.
 */

import { recentReports } from '../db/reconciliation';
import { listUnapplied } from '../db/unapplied';
import type { Actor } from '../domain/operators';
import type { ReconciliationReport } from '../domain/reconciliation';
import { type UnappliedStatus, unappliedView } from '../domain/unapplied';
import { brtTime, esc, frame } from './html';
import { CONSOLE_PATH } from './session';

const RECEIPTS = 100;
const REPORTS = 14;

const brl = (amount: number) => `R$ ${amount.toFixed(2)}`;

function receiptsCard(
  items: ReturnType<typeof unappliedView>[],
  status: UnappliedStatus | undefined,
): string {
  const filter = (s: string, label: string) =>
    `<a href="${CONSOLE_PATH}/books${s ? `?status=${s}` : ''}#unapplied"${(status ?? '') === s ? ' aria-current="page"' : ''}>${label}</a>`;
  const rows = items
    .map(
      (r) => `<tr>
<td><code>${esc(r.endToEndId)}</code><br><span class="muted">${esc(r.txid ?? 'no txid')}</span></td>
<td>${esc(r.reason)}</td>
<td>${esc(brl(r.amount))}</td>
<td>${brtTime(r.receivedAt)}</td>
<td>${esc(r.clientId ?? `partner ${r.ispb}`)}</td>
<td><strong>${esc(r.return.status)}</strong>${r.return.failure ? `<br><span class="error">${esc(r.return.failure)}</span>` : ''}${r.return.returnedAt ? `<br><span class="muted">${brtTime(r.return.returnedAt)}</span>` : ''}</td>
</tr>`,
    )
    .join('');
  return `<section class="card" id="unapplied">
<h2>Unapplied receipts</h2>
<p class="muted">Money a partner reported that no Cash-In could take: held for the payer and returned through the partner. FAILED ones need you: the money is still held.</p>
<p>${filter('', 'All')} · ${filter('PROCESSING', 'Being returned')} · ${filter('FAILED', 'Failed')} · ${filter('RETURNED', 'Returned')}</p>
${
  items.length === 0
    ? '<p class="muted">None.</p>'
    : `<div class="scroll"><table>
<thead><tr><th>Payment</th><th>Reason</th><th>Amount</th><th>Received</th><th>Held by</th><th>Return</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
</section>`;
}

function reportsCard(reports: ReconciliationReport[]): string {
  const report = (r: ReconciliationReport) => {
    const breaks = r.breaks
      .map(
        (b) =>
          `<tr><td>${esc(b.kind)}</td><td>${esc(b.subject)}</td><td><code>${esc(b.endToEndId ?? b.transactionId ?? '')}</code></td><td>${b.ours ? esc(`${brl(b.ours.amount)} ${b.ours.status}`) : '—'}</td><td>${b.theirs ? esc(`${brl(b.theirs.amount)} ${b.theirs.status}`) : '—'}</td></tr>`,
      )
      .join('');
    const healed = r.healed
      .map(
        (h) => `<li>${esc(h.subject)} <code>${esc(h.endToEndId)}</code>: ${esc(h.outcome.join(', '))}</li>`,
      )
      .join('');
    return `<details${r.status === 'BREAKS' ? ' open' : ''}><summary><strong>${esc(r.date)}</strong> · partner ${esc(r.ispb)} · <span class="${r.status === 'MATCHED' ? 'muted' : 'error'}">${esc(r.status)}</span> · ${r.breaks.length} break(s), ${r.healed.length} healed${r.pendingReason ? ` · ${esc(r.pendingReason)}` : ''}</summary>
${breaks ? `<div class="scroll"><table><thead><tr><th>Kind</th><th>What</th><th>Id</th><th>Ours</th><th>Theirs</th></tr></thead><tbody>${breaks}</tbody></table></div>` : ''}
${healed ? `<p>Healed (booked through the normal path):</p><ul>${healed}</ul>` : ''}
</details>`;
  };
  return `<section class="card" id="reconciliation">
<h2>Daily reconciliation</h2>
<p class="muted">Each real partner's records of a closed day against our books. Breaks stay until you look.</p>
${reports.length === 0 ? '<p class="muted">No day checked yet.</p>' : reports.map(report).join('\n')}
</section>`;
}

export async function booksPage(env: Env, status: string | null, actor: Actor): Promise<string> {
  const wanted = (['PROCESSING', 'RETURNED', 'FAILED'] as const).find((s) => s === status);
  const [receipts, reports] = await Promise.all([
    listUnapplied(env, wanted ? { status: wanted } : {}, RECEIPTS),
    recentReports(env, REPORTS),
  ]);
  return frame(
    'Books',
    `<p><a href="${CONSOLE_PATH}">← Dashboard</a></p>
${receiptsCard(receipts.items.map(unappliedView), wanted)}
${reportsCard(reports)}`,
    { actor },
  );
}
