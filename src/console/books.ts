/**
 * The console's books page: unapplied receipts (money no Cash-In could take, and its return to the
 * payer) and the latest daily reconciliation reports, with their breaks and what was healed. The
 * same data as GET /admin/unapplied and GET /admin/reconciliation, read from D1.
 */
import { findClient } from '../db/clients';
import { daysBehind, recentReports } from '../db/reconciliation-reports';
import { listUnapplied } from '../db/unapplied';
import type { Actor } from '../domain/operators';
import { lastClosedDay } from '../domain/reconciliation-days';
import type { ReconciliationReport } from '../domain/reconciliation-matching';
import { type UnappliedStatus, unappliedView } from '../domain/unapplied';
import { bankName, declaredPartners } from '../partners/config';
import { brlFromReais } from './format';
import { brtTime, esc, frame } from './html';
import { CONSOLE_PATH } from './session';

const RECEIPTS = 100;
const REPORTS = 14;
const BREAKS_HEAD = '<tr><th>Kind</th><th>What</th><th>Id</th><th>Ours</th><th>Theirs</th></tr>';

/** Who the page names: clients by their name, partners as declared (the ids stay in a tooltip). */
interface Names {
  clients: Record<string, string>;
  partners: Record<string, string>;
}

function heldBy(r: ReturnType<typeof unappliedView>, names: Names): string {
  if (r.clientId)
    return `<span title="${esc(r.clientId)}">${esc(names.clients[r.clientId] ?? r.clientId)}</span>`;
  return `<span title="ISPB ${esc(r.ispb)}">${esc(names.partners[r.ispb] ?? `partner ${r.ispb}`)}</span>`;
}

/** A FAILED return still read at the partner is not the operator's yet: returning it by other means could pay twice. */
function failedNote(r: ReturnType<typeof unappliedView>, now: number): string {
  const until = r.return.readUntil;
  if (!until) return '';
  return Date.parse(until) > now
    ? `<br><span class="muted">still read at the partner until ${brtTime(until)}: do not return it by other means</span>`
    : '<br><span class="error">no longer read at the partner: needs you</span>';
}

function receiptsCard(
  items: ReturnType<typeof unappliedView>[],
  status: UnappliedStatus | undefined,
  names: Names,
  now: number,
): string {
  const filter = (s: string, label: string) =>
    `<a href="${CONSOLE_PATH}/books${s ? `?status=${s}` : ''}#unapplied"${(status ?? '') === s ? ' aria-current="page"' : ''}>${label}</a>`;
  const rows = items
    .map(
      (r) => `<tr>
<td data-label="Payment"><code>${esc(r.endToEndId)}</code><br><span class="muted">${esc(r.txid ?? 'no txid')}</span></td>
<td data-label="Reason">${esc(r.reason)}</td>
<td data-label="Amount">${esc(brlFromReais(r.amount))}</td>
<td data-label="Received">${brtTime(r.receivedAt)}</td>
<td data-label="Held by">${heldBy(r, names)}</td>
<td data-label="Return"><strong>${esc(r.return.status)}</strong>${
        r.return.failure ? `<br><span class="error">${esc(r.return.failure)}</span>` : ''
      }${failedNote(r, now)}${
        r.return.returnedAt ? `<br><span class="muted">${brtTime(r.return.returnedAt)}</span>` : ''
      }</td>
</tr>`,
    )
    .join('');
  return (
    `<section class="card" id="unapplied">
<h2>Unapplied receipts</h2>
<p class="muted">Money a partner reported that no Cash-In could take: held for the payer and ` +
    `returned through the partner. A FAILED return keeps being read at the partner for the MED window ` +
    `(the network may still settle it); only one past that window needs you.</p>
<p>${filter('', 'All')} · ${filter('PROCESSING', 'Being returned')} · ${filter('FAILED', 'Failed')} · ${filter('RETURNED', 'Returned')}</p>
${
  items.length === 0
    ? '<p class="muted">None.</p>'
    : `<div class="scroll"><table>
<thead><tr><th>Payment</th><th>Reason</th><th>Amount</th><th>Received</th><th>Held by</th><th>Return</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
</section>`
  );
}

/** Each real partner's closed days with no final report yet (never checked, or PENDING). */
async function backlogOf(env: Env, now: number): Promise<{ ispb: string; behind: number }[]> {
  const real = declaredPartners(env).filter((p) => p.kind === 'bcb-api-pix');
  return Promise.all(
    real.map(async (p) => ({ ispb: p.ispb, behind: await daysBehind(env, p.ispb, lastClosedDay(now)) })),
  );
}

/** The balance check's figures: why the two sides agree (or by how much not) while money is in flight. */
function balanceLine(r: ReconciliationReport): string {
  const b = r.balance;
  if (!b) return '';
  return (
    `<p class="balance">Balance: our books ${esc(brlFromReais(b.books))}, of it in flight ` +
    `to the partner ${esc(brlFromReais(b.inFlightOut))} (sent, not settled): ` +
    `ours ${esc(brlFromReais(b.ours))} · theirs ${esc(brlFromReais(b.theirs))}</p>`
  );
}

function reportsCard(
  reports: ReconciliationReport[],
  backlog: { ispb: string; behind: number }[],
  names: Names,
): string {
  const report = (r: ReconciliationReport) => {
    const breaks = r.breaks
      .map(
        (b) =>
          `<tr><td data-label="Kind">${esc(b.kind)}</td><td data-label="What">${esc(b.subject)}</td>` +
          `<td data-label="Id"><code>${esc(b.endToEndId ?? b.transactionId ?? '')}</code></td>` +
          `<td data-label="Ours">${b.ours ? esc(`${brlFromReais(b.ours.amount)} ${b.ours.status}`) : '—'}</td>` +
          `<td data-label="Theirs">${b.theirs ? esc(`${brlFromReais(b.theirs.amount)} ${b.theirs.status}`) : '—'}</td></tr>`,
      )
      .join('');
    const healed = r.healed
      .map(
        (h) => `<li>${esc(h.subject)} <code>${esc(h.endToEndId)}</code>: ${esc(h.outcome.join(', '))}</li>`,
      )
      .join('');
    return (
      `<details${r.status === 'BREAKS' ? ' open' : ''}><summary><strong>${esc(r.date)}</strong> ` +
      `· ${esc(names.partners[r.ispb] ?? `partner ${r.ispb}`)} · <span ` +
      `class="${r.status === 'MATCHED' ? 'muted' : 'error'}">${esc(r.status)}</span> ` +
      `· ${r.breaks.length} break(s), ${r.healed.length} healed${
        r.pendingReason ? ` · ${esc(r.pendingReason)}` : ''
      }</summary>
${balanceLine(r)}
${breaks ? `<div class="scroll"><table><thead>${BREAKS_HEAD}</thead><tbody>${breaks}</tbody></table></div>` : ''}
${healed ? `<p>Healed (booked through the normal path):</p><ul>${healed}</ul>` : ''}
</details>`
    );
  };
  return `<section class="card" id="reconciliation">
<h2>Daily reconciliation</h2>
<p class="muted">Each real partner's records of a closed day against our books. Breaks stay until you look.</p>
${backlog
  .map(
    (b) =>
      `<p>${esc(names.partners[b.ispb] ?? `Partner ${b.ispb}`)}: <strong ` +
      `class="${b.behind > 0 ? 'error' : 'muted'}">${b.behind} day(s) behind</strong> (closed days not ` +
      `yet MATCHED or BREAKS, retried oldest first)</p>`,
  )
  .join('\n')}
${
  reports.length === 0
    ? `<p class="muted">No day checked yet. Days are checked for declared partners only (PARTNERS, docs/operating.md), never the sandbox: \
declare the mock bank (<code>npm run mock:psp</code>), then <code>npm run demo -- --with-mock-psp</code> fills this page.</p>`
    : reports.map(report).join('\n')
}
</section>`;
}

export async function booksPage(env: Env, status: string | null, actor: Actor): Promise<string> {
  const wanted = (['PROCESSING', 'RETURNED', 'FAILED'] as const).find((s) => s === status);
  const now = Date.now();
  const [receipts, reports, backlog] = await Promise.all([
    listUnapplied(env, wanted ? { status: wanted } : {}, RECEIPTS),
    recentReports(env, REPORTS),
    backlogOf(env, now),
  ]);
  const items = receipts.items.map(unappliedView);
  const names: Names = { clients: {}, partners: {} };
  for (const ispb of new Set([
    ...items.map((r) => r.ispb),
    ...reports.map((r) => r.ispb),
    ...backlog.map((b) => b.ispb),
  ]))
    names.partners[ispb] = bankName(env, ispb);
  const clientIds = [...new Set(items.flatMap((r) => (r.clientId ? [r.clientId] : [])))];
  for (const client of await Promise.all(clientIds.map((id) => findClient(env, id)))) {
    if (client) names.clients[client.id] = client.name;
  }
  return frame(
    'Books',
    `<p><a href="${CONSOLE_PATH}">← Dashboard</a></p>
${receiptsCard(items, wanted, names, now)}
${reportsCard(reports, backlog, names)}`,
    { actor },
  );
}
