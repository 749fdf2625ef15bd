/** The console's audit trail page: the newest records, optionally of one operator or action. */
import { listAudit, type StoredAudit } from '../db/audit';
import type { Actor } from '../domain/operators';
import { brtTime, esc, frame } from './html';
import { CONSOLE_PATH } from './session';

const PAGE = 100;

const who = (r: StoredAudit) =>
  r.actorKind === 'ADMIN_TOKEN' ? 'ADMIN_TOKEN' : `${r.email ?? ''} (${r.actorKind})`;
const change = (r: StoredAudit) =>
  [
    r.before != null && `before ${JSON.stringify(r.before)}`,
    r.after != null && `after ${JSON.stringify(r.after)}`,
  ]
    .filter(Boolean)
    .join(' · ');

export async function auditPage(env: Env, query: URLSearchParams, actor: Actor): Promise<string> {
  const filter = {
    ...(query.get('actor') && { actor: (query.get('actor') as string).toLowerCase() }),
    ...(query.get('action') && { action: query.get('action') as string }),
  };
  const { items } = await listAudit(env, filter, PAGE);
  const rows = items
    .map(
      (r) => `<tr data-action="${esc(r.action)}" data-result="${esc(r.result)}">
<td data-label="When">${brtTime(r.at)}</td>
<td data-label="Who">${esc(who(r))}</td>
<td data-label="Action" class="mono">${esc(r.action)}</td>
<td data-label="Target" class="mono">${esc(r.target)}</td>
<td data-label="Result">${esc(r.result)}</td>
<td data-label="Change" class="mono">${esc(change(r))}</td>
</tr>`,
    )
    .join('\n');
  return frame(
    'Audit trail',
    `<p><a href="${CONSOLE_PATH}">← Dashboard</a></p>
<section class="card" id="audit">
<h2>Audit trail</h2>
<form method="get" action="${CONSOLE_PATH}/audit">
<label for="actor">Operator (id or email)</label> <input id="actor" name="actor" value="${esc(query.get('actor') ?? '')}">
<label for="action">Action</label> <input id="action" name="action" value="${esc(query.get('action') ?? '')}">
<button type="submit">Filter</button>
</form>
<p class="muted">Newest first, the latest ${PAGE}; every change and every refusal for a role. GET /admin/audit pages through all of it.</p>
${items.length === 0 ? '<p class="muted">No records.</p>' : ''}
<div class="scroll"><table>
<thead><tr><th>When</th><th>Who</th><th>Action</th><th>Target</th><th>Result</th><th>Change</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
</section>`,
    { actor },
  );
}
