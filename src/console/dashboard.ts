/** The console's one page: clients and limits, a client's webhook deliveries, health plots, incidents. */

import type { ClientDispute } from '../../durable-objects/all-disputes';
import type { CashOutBatchView } from '../../durable-objects/ledger/cash-out/cash-out-batch-ops';
import type { RecurrenceView } from '../../durable-objects/ledger/recurrence/recurrence-ops';
import type { DeliveryView } from '../../durable-objects/ledger/webhooks/delivery-view';
import { type Actor, roleAllows } from '../domain/operators';
import { batchesSection } from './batches';
import { type Chart, MIN_OUTCOMES } from './charts';
import type { ClientPage, ClientSummary, DeliveriesShown, HealthView, OlderDeliveries } from './data';
import { REDELIVERABLE } from './data';
import { disputesSection } from './disputes';
import { brl, count, decimal, percent } from './format';
import { brtTime, esc, frame, scriptJson } from './html';
import { incidentText } from './incident-text';
import { recurrencesSection } from './recurrences';
import { CONSOLE_PATH, CONSOLE_ROLES } from './session';

export interface DashboardModel {
  csrf: string;
  /** Who is signed in: the page offers only what their role may do. */
  actor: Actor;
  clients: ClientPage;
  /** ISPB → partner name, for every partner the listed clients use. */
  partnerNames: Record<string, string>;
  clientsBefore?: string;
  selected?: ClientSummary;
  deliveries: DeliveryView[];
  /** Cursors of the next older page of each redeliverable status that has more (./data.ts). */
  olderDeliveryCursors?: DeliveriesShown['older'];
  /** Set when the page shows an older page of one redeliverable status. */
  olderDeliveries?: OlderDeliveries;
  batches: CashOutBatchView[];
  /** The selected client's latest recurrences (./recurrences.ts). */
  recurrences: RecurrenceView[];
  charts: Chart[];
  health: HealthView;
  notice?: string;
  /** Every client's open MED disputes, soonest deadline first (./disputes.ts). */
  disputes: readonly ClientDispute[];
}

/** Evidence `deviationPercent` is a ratio, (observed − expected) / expected: −0.16 is 16 % below. */
const ratioToPercent = (ratio: number | null) => (ratio === null ? null : ratio * 100);

function limitsText(c: ClientSummary): string {
  const l = c.limits;
  return [
    `per transaction ${brl(l.perTransaction)}`,
    `daily ${brl(l.daily)}`,
    `monthly ${brl(l.monthly)}`,
    `per payee daily ${brl(l.perPayeeDaily)}`,
    `approval above ${brl(c.approvalThresholdCents)}`,
    `rate ${c.rateLimitPerSecond == null ? 'unlimited' : `${count(c.rateLimitPerSecond)}/s`}`,
    // A betting operator takes deposits only from the bettor's own account (docs/contract.md, Who paid).
    c.payerPolicy === 'DECLARED_PAYER' ? 'deposits from the declared payer only' : 'deposits from any payer',
  ].join(' · ');
}

/** A table, or its section's one sentence when it has no rows (no header over nothing). */
function tableOrEmpty(count: number, empty: string, headers: string, rows: string): string {
  if (count === 0) return `<p class="muted">${empty}</p>`;
  return `<div class="scroll"><table>\n<thead><tr>${headers}</tr></thead>\n<tbody>\n${rows}\n</tbody></table></div>`;
}

function clientsSection(m: DashboardModel): string {
  const rows = m.clients.items
    .map(
      (c) => `<tr${c.id === m.selected?.id ? ' class="selected"' : ''}>
<td data-label="Client"><a href="${CONSOLE_PATH}?client=${encodeURIComponent(c.id)}">${esc(c.name)}</a><div class="muted mono">${esc(c.id)}</div></td>
<td data-label="Partners" class="partners">${c.partners
        .map((ispb) => `<span title="ISPB ${esc(ispb)}">${esc(m.partnerNames[ispb] ?? ispb)}</span>`)
        .join(', ')}</td>
<td data-label="Limits" class="limits">${esc(limitsText(c))}</td>
<td data-label="Access">${c.applicationTokenActive ? 'active' : '<span class="error">token off</span>'}</td>
</tr>`,
    )
    .join('\n');
  const older = m.clients.next
    ? `<a class="button" href="${CONSOLE_PATH}?before=${encodeURIComponent(m.clients.next)}">Older clients</a>`
    : '';
  return `<section class="card" id="clients">
<h2>Clients</h2>
${tableOrEmpty(
  m.clients.items.length,
  'No clients yet: onboard one with POST /admin/clients.',
  '<th>Client</th><th>Partners</th><th>Limits</th><th>Access</th>',
  rows,
)}
${older}
</section>`;
}

const RETRYABLE = new Set(['FAILED', 'GIVEN_UP']);

/**
 * A redelivered event starts a new round (attempts from 0) while the last round's answer is kept:
 * said as such, so 2 attempts turning into 0 with the old error under them reads as what it is.
 */
function attemptsText(d: DeliveryView): string {
  const newRound =
    (d.status === 'PENDING' || d.status === 'IN_FLIGHT') &&
    d.attempts === 0 &&
    (d.lastError || d.lastResponseStatus);
  const last = [
    d.lastResponseStatus && !d.lastError?.startsWith('HTTP') ? `HTTP ${d.lastResponseStatus}` : '',
    d.lastError ?? '',
  ]
    .filter(Boolean)
    .join(' · ');
  if (newRound) return `0, new round<div class="muted">previous round: ${esc(last)}</div>`;
  return `${count(d.attempts)}${last ? `<div class="muted">${esc(last)}</div>` : ''}`;
}

/**
 * Which time a delivery row shows, said in words: a time already past on a waiting row means it is
 * queued behind an earlier event of the client (deliveries go out in order), not late.
 */
function whenText(d: DeliveryView, now: number): string {
  if (d.deliveredAt) return `delivered ${brtTime(d.deliveredAt)}`;
  if (d.nextAttemptAt && Date.parse(d.nextAttemptAt) > now) return `next attempt ${brtTime(d.nextAttemptAt)}`;
  if (d.nextAttemptAt) return d.status === 'PENDING' ? 'queued behind an earlier event' : 'next attempt: now';
  return d.lastAttemptAt ? `last attempt ${brtTime(d.lastAttemptAt)}` : '';
}

function deliveriesSection(m: DashboardModel): string {
  if (!m.selected) return '';
  const client = m.selected;
  const rows = m.deliveries
    .map(
      (d) => `<tr data-event-id="${esc(d.eventId)}" data-status="${esc(d.status)}">
<td data-label="Event">${esc(d.eventType)}<div class="muted mono">${esc(d.eventId)}</div></td>
<td data-label="Transaction" class="mono">${esc(d.aggregateId)}</td>
<td data-label="Status"><span class="status status-${esc(d.status.toLowerCase())}">${esc(d.status)}</span></td>
<td data-label="Attempts">${attemptsText(d)}</td>
<td data-label="When">${whenText(d, m.health.to)}</td>
<td class="actions">${
        RETRYABLE.has(d.status) && roleAllows(m.actor.role, CONSOLE_ROLES.redeliver)
          ? `<form method="post" action="${CONSOLE_PATH}/redeliver">
<input type="hidden" name="csrf" value="${esc(m.csrf)}">
<input type="hidden" name="clientId" value="${esc(client.id)}">
<input type="hidden" name="eventId" value="${esc(d.eventId)}">
<button type="submit">Redeliver</button></form>`
          : ''
      }</td>
</tr>`,
    )
    .join('\n');
  return `<section class="card" id="deliveries">
<h2>Webhook deliveries · ${esc(client.name)}</h2>
${noticeText(m)}
<p class="muted">${
    m.olderDeliveries
      ? `Older ${esc(m.olderDeliveries.status)} deliveries, newest first.`
      : 'Failed and given up first (they can be redelivered), then the latest.'
  }</p>
${tableOrEmpty(
  m.deliveries.length,
  m.olderDeliveries ? 'No older ones.' : 'No deliveries yet.',
  '<th>Event</th><th>Transaction</th><th>Status</th><th>Attempts</th><th>When</th><th></th>',
  rows,
)}
${olderDeliveryLinks(m, client.id)}
</section>`;
}

/**
 * Every FAILED and GIVEN_UP delivery stays reachable, however many: a page of each is shown, and a
 * link per status pages through the rest by the same cursor as the operator API's list.
 */
function olderDeliveryLinks(m: DashboardModel, clientId: string): string {
  const links = REDELIVERABLE.flatMap((status) => {
    const before = m.olderDeliveryCursors?.[status];
    if (before === undefined) return [];
    const query = new URLSearchParams({ client: clientId, deliveries: status, deliveriesBefore: before });
    return [
      `<a class="button" data-older="${status}" href="${CONSOLE_PATH}?${esc(query.toString())}#deliveries">Older ${status} deliveries</a>`,
    ];
  });
  if (m.olderDeliveries)
    links.push(
      `<a href="${CONSOLE_PATH}?client=${encodeURIComponent(clientId)}#deliveries">Back to the latest</a>`,
    );
  return links.length === 0 ? '' : `<p class="older">${links.join(' ')}</p>`;
}

function chartsSection(m: DashboardModel): string {
  const cards = m.charts
    .map(
      (c) => `<figure class="chart-card">
<figcaption>${esc(c.title)}</figcaption>
<div class="chart" data-chart="${esc(c.key)}" data-bands="${c.bands.length}"></div>
${c.bands.map((b) => `<p class="band-note">Incident <a href="#incident-${esc(b.incidentId)}">${esc(b.label)}</a></p>`).join('')}
</figure>`,
    )
    .join('\n');
  return (
    `<section class="card" id="health">
<h2>Partner and bank health · last 24 h</h2>
<p class="muted">Per 5-minute window: success rate (line and points, left axis; shown ` +
    `from ${MIN_OUTCOMES} finished transactions, the legend says out of how many) and volume (bars, ` +
    `right axis): a partner's transactions created, a bank's transactions finished. Shaded: ` +
    `incidents. Times: 24 h, BRT (America/Sao_Paulo).</p>
${m.charts.length === 0 ? '<p class="muted">No traffic in the last 24 hours.</p>' : ''}
<div class="charts">${cards}</div>
<script type="application/json" id="chart-data">${scriptJson(m.charts)}</script>
</section>`
  );
}

function incidentsSection(m: DashboardModel): string {
  const items = m.health.incidents
    .map(
      (i) =>
        `<article class="incident" id="incident-${esc(i.incidentId)}" data-origin="${esc(`${i.origin.type}:${i.origin.id}`)}">
<h3><span class="status status-${esc(i.status.toLowerCase())}">${esc(i.status)}</span> ${esc(i.origin.displayName)} · ${esc(i.operation)}</h3>
<p class="incident-text">${incidentText(i, i.evidence)}</p>
<p class="muted">${esc(i.origin.type)} (${esc(i.originClass)}), severity ${esc(i.severity)}, ` +
        `confidence ${esc(i.confidence)}; started ${brtTime(i.startedAt)}, ` +
        `detected ${brtTime(i.detectedAt)}${
          i.resolvedAt ? `, resolved ${brtTime(i.resolvedAt)}` : ''
        }; ${count(i.affectedClientIds.length)} client(s) ` +
        `affected.</p>
<details><summary>Evidence (${count(i.evidence.length)})</summary><div class="scroll"><table>
<thead><tr><th>Window</th><th>Metric</th><th>Entity</th><th>Deviation</th><th>z</th></tr></thead><tbody>
${i.evidence
  .map(
    (e) =>
      `<tr><td data-label="Window">${brtTime(e.observedAt)}</td><td data-label="Metric">${esc(e.metric)}</td>` +
      `<td data-label="Entity">${esc(`${e.entity.type} ${e.entity.id}`)}</td><td data-label="Deviation">${percent(ratioToPercent(e.deviationPercent))}</td>` +
      `<td data-label="z">${decimal(e.z)}</td></tr>`,
  )
  .join('\n')}
</tbody></table></div></details>
</article>`,
    )
    .join('\n');
  return `<section class="card" id="incidents">
<h2>Incidents · open and last 24 h</h2>
${m.health.incidents.length === 0 ? '<p class="muted">None.</p>' : items}
</section>`;
}

/**
 * The outcome of a redelivery, shown at the top of the deliveries section the redirect scrolls to:
 * on a phone the top of the page is screens away from the button that was pressed.
 */
function noticeText(m: DashboardModel): string {
  return m.notice ? `<p class="notice" id="notice" role="status">${esc(m.notice)}</p>` : '';
}

export function dashboardPage(m: DashboardModel): string {
  return frame(
    'Overview',
    `<div class="bar">
<nav><a href="#incidents">Incidents</a> <a href="#disputes">Disputes</a> <a ` +
      `href="#clients">Clients</a> <a href="#deliveries">Deliveries</a> <a href="#batches">Batches</a> ` +
      `<a href="#recurrences">Pix Automático</a> <a href="#health">Health</a></nav>
<form method="post" action="${CONSOLE_PATH}/logout"><input type="hidden" name="csrf" ` +
      `value="${esc(m.csrf)}"><button type="submit" class="link">Sign out</button></form>
</div>
${m.selected ? '' : noticeText(m)}
${incidentsSection(m)}
${disputesSection(m.disputes, Object.fromEntries(m.clients.items.map((c) => [c.id, c.name])))}
${clientsSection(m)}
${deliveriesSection(m)}
${m.selected ? batchesSection(m.selected.name, m.batches) : ''}
${m.selected ? recurrencesSection(m.selected.name, m.recurrences) : ''}
${chartsSection(m)}`,
    { charts: true, actor: m.actor },
  );
}
