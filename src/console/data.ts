/**
 * What the console page shows, read once per page view: every read is bounded (a page of clients by
 * index, 20 deliveries, a day of per-window series, the last day's incidents).
 */
import { healthAnalyzer } from '../../durable-objects/health-stub';
import type { CashOutBatchView } from '../../durable-objects/ledger/cash-out/cash-out-batch-ops';
import type { RecurrenceView } from '../../durable-objects/ledger/recurrence/recurrence-ops';
import type { RecurrencePage } from '../../durable-objects/ledger/recurrence/recurrence-rpc';
import type { DeliveryView } from '../../durable-objects/ledger/webhooks/delivery-view';
import { ledgerOf } from '../../durable-objects/stubs';
import { type ClientPage, type ClientSummary, clientPage } from '../db/clients';
import { incidentsIn, incidentWithEvidence, openIncidents, type StoredIncident } from '../db/health';
import type { SeriesPoint } from '../health/surface/series';
import type { EvidenceItem } from '../health/types';
import { bankName } from '../partners/config';

export const DELIVERIES_SHOWN = 20;
export const LARGE_BANKS = 4;
const DAY_MS = 24 * 60 * 60 * 1000;
const INCIDENTS_WITH_EVIDENCE = 20;

/** The statuses a delivery can be redelivered from: the console lists every one of them, page by page. */
export const REDELIVERABLE = ['FAILED', 'GIVEN_UP'] as const;
export type Redeliverable = (typeof REDELIVERABLE)[number];

/** An older page of one redeliverable status: its rows below `before` (the seq cursor of the page above). */
export interface OlderDeliveries {
  status: Redeliverable;
  before: number;
}

export interface DeliveriesShown {
  items: DeliveryView[];
  /** Cursors of the next older page per status, where more rows of it wait below the ones shown. */
  older: Partial<Record<Redeliverable, string>>;
}

/**
 * What needs the operator first (FAILED, GIVEN_UP: the redeliver button), then the most recent of
 * all; each read by the (status, seq) index or the seq order, newest first. A status with more rows
 * than a page gets a cursor, and `older` pages through it, so every delivery the operator API lists
 * under that status is reachable here too (the API pages them the same way).
 */
export async function recentDeliveries(
  env: Env,
  clientId: string,
  older?: OlderDeliveries,
): Promise<DeliveriesShown> {
  const ledger = ledgerOf(env, clientId);
  const none: Promise<{ items: DeliveryView[]; nextCursor?: string }> = Promise.resolve({ items: [] });
  const page = (status: Redeliverable) =>
    older && older.status !== status
      ? none
      : ledger.listWebhookDeliveries({
          status,
          limit: DELIVERIES_SHOWN,
          ...(older && { before: older.before }),
        });
  const [failed, givenUp, recent] = await Promise.all([
    page('FAILED'),
    page('GIVEN_UP'),
    older ? none : ledger.listWebhookDeliveries({ limit: DELIVERIES_SHOWN }),
  ]);
  const seen = new Set<string>();
  return {
    items: [...failed.items, ...givenUp.items, ...recent.items].filter(
      (d) => !seen.has(d.eventId) && seen.add(d.eventId),
    ),
    older: {
      ...(failed.nextCursor !== undefined && { FAILED: failed.nextCursor }),
      ...(givenUp.nextCursor !== undefined && { GIVEN_UP: givenUp.nextCursor }),
    },
  };
}

/** `?deliveries=FAILED&deliveriesBefore=<cursor>`: an older page of one status; anything else is the first page. */
export function olderDeliveriesOf(params: URLSearchParams): OlderDeliveries | undefined {
  const status = REDELIVERABLE.find((s) => s === params.get('deliveries'));
  const before = params.get('deliveriesBefore') ?? '';
  return status && /^\d{1,15}$/.test(before) ? { status, before: Number(before) } : undefined;
}

/** The client's latest Cash-Out batches with their items' counts by status (at most 10). */
export function recentBatches(env: Env, clientId: string): Promise<CashOutBatchView[]> {
  return ledgerOf(env, clientId).cashOutBatches({ recent: true });
}

export const RECURRENCES_SHOWN = 10;

/** The client's latest Pix Automático recurrences, newest first, as GET /recurrences lists them. */
export async function recentRecurrences(env: Env, clientId: string): Promise<RecurrenceView[]> {
  const result = await ledgerOf(env, clientId).recurrence({ op: 'list', limit: RECURRENCES_SHOWN });
  if (!result.ok || !('body' in result)) return [];
  return (result.body as RecurrencePage).items;
}

export interface HealthView {
  series: SeriesPoint[];
  names: Record<string, string>;
  incidents: (StoredIncident & { evidence: EvidenceItem[] })[];
  from: number;
  to: number;
}

/** The last 24 h: partners and the busiest banks per window, and every incident open or started since. */
export async function healthView(env: Env, now: number): Promise<HealthView> {
  const from = now - DAY_MS;
  const [series, open, recent] = await Promise.all([
    healthAnalyzer(env).series(from, LARGE_BANKS),
    openIncidents(env),
    incidentsIn(env, from, now, []),
  ]);
  const byId = new Map<string, StoredIncident>();
  for (const incident of [...open, ...recent]) byId.set(incident.incidentId, incident);
  const listed = [...byId.values()]
    // Still open first (they need the operator), then the newest.
    .sort((a, b) => Number(!!a.resolvedAt) - Number(!!b.resolvedAt) || b.startedAt.localeCompare(a.startedAt))
    .slice(0, INCIDENTS_WITH_EVIDENCE);
  const incidents = await Promise.all(
    listed.map(async (incident) => ({
      ...incident,
      evidence: ((await incidentWithEvidence(env, incident.incidentId))?.evidence ??
        []) as unknown as EvidenceItem[],
    })),
  );
  const names: Record<string, string> = {};
  for (const p of series) names[p.id] ??= bankName(env, p.id);
  return { series, names, incidents, from, to: now };
}

export { type ClientPage, type ClientSummary, clientPage };

/** A settlement partner's name: its declaration's (a real partner), else the catalog's. */
export function partnerName(env: Env, ispb: string): string {
  return bankName(env, ispb);
}

/** Names of every partner the listed clients use, for the clients table. */
export function partnerNames(env: Env, clients: readonly ClientSummary[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const c of clients) for (const ispb of c.partners) names[ispb] ??= partnerName(env, ispb);
  return names;
}
