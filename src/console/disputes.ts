/**
 * The console's open MED disputes (docs/operating.md, MED disputes and their deadlines): every
 * client's, soonest deadline first, so the operator sees which defenses are due.
 */
import { allDisputes, type ClientDispute } from '../../durable-objects/all-disputes';
import { brlFromReais, count } from './format';
import { brtTime, esc } from './html';

/** How far back the console looks for disputes still open, and how many it shows. */
const LOOKBACK_MS = 120 * 24 * 3_600_000;
export const DISPUTES_SHOWN = 50;

export async function openDisputes(env: Env, now: number): Promise<ClientDispute[]> {
  const found = await Promise.all(
    ['OPEN', 'DEFENDED'].map((status) =>
      allDisputes(env, { from: now - LOOKBACK_MS, to: now, limit: DISPUTES_SHOWN, status }),
    ),
  );
  const due = (d: ClientDispute) => Date.parse(d.cashIn.dispute?.respondBy ?? '');
  return found
    .flat()
    .sort((a, b) => due(a) - due(b))
    .slice(0, DISPUTES_SHOWN);
}

export function disputesSection(disputes: readonly ClientDispute[], names: Record<string, string>): string {
  const rows = disputes
    .map(
      ({ clientId, cashIn }) => `<tr>
<td data-label="Respond by">${brtTime(cashIn.dispute?.respondBy)}</td>
<td data-label="Status">${esc(cashIn.dispute?.status ?? '')}</td>
<td data-label="Blocked">${brlFromReais(cashIn.dispute?.blockedAmount ?? 0)}</td>
<td data-label="Client" class="mono">${esc(names[clientId] ?? clientId)}</td>
<td data-label="Cash-In" class="mono">${esc(cashIn.internalCode)}</td>
</tr>`,
    )
    .join('\n');
  // Shown only when a defense may be due: an empty section would push the clients down for nothing.
  if (disputes.length === 0) return '';
  return `<section class="card attention" id="disputes">
<h2>Open disputes · defenses due · ${count(disputes.length)}</h2>
<div class="scroll"><table>
<thead><tr><th>Respond by</th><th>Status</th><th>Blocked</th><th>Client</th><th>Cash-In</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
</section>`;
}
