/**
 * The plots' data, built on the server: one chart per entity (partner, large bank) and operation, a
 * point per 5-minute window of the last day (null where nothing happened: a gap, not a zero), and
 * the incidents of that entity drawn as bands on the same time axis.
 */
import type { StoredIncident } from '../db/health';
import { type SeriesPoint, successRate } from '../health/surface/series';
import type { Operation } from '../health/types';
import { WINDOW_MS } from '../health/windows/window';

export interface ChartBand {
  /** Seconds (uPlot's time unit). */
  from: number;
  to: number;
  label: string;
  incidentId: string;
}

export interface Chart {
  key: string;
  title: string;
  /** What the bars count: a partner's transactions created; a bank's finished (see series.ts). */
  volumeLabel: string;
  kind: 'partner' | 'institution';
  operation: Operation;
  x: number[];
  /** Null where a window finished fewer than MIN_OUTCOMES transactions: one failure is not a rate. */
  successPercent: (number | null)[];
  /** Finished transactions per window, what each rate is out of (the legend shows it). */
  outcomes: number[];
  volume: number[];
  bands: ChartBand[];
}

/** Below this many finished transactions a window's success rate swings 0–100 % and says nothing. */
export const MIN_OUTCOMES = 5;

const OPERATION_TEXT: Record<Operation, string> = { CASH_IN: 'Cash-In', CASH_OUT: 'Cash-Out' };

/** Which entity's chart an incident belongs on (platform-wide ones on every chart of the operation). */
function onChart(incident: StoredIncident, kind: Chart['kind'], id: string): boolean {
  const origin = incident.origin;
  if (origin.type === 'BANKING_PARTNER') return kind === 'partner' && origin.id === id;
  if (origin.type === 'PAYER_INSTITUTION') return kind === 'institution' && origin.id === id;
  return origin.type === 'CONNECTPSP' || origin.type === 'PIX_SYSTEMIC';
}

/** The shortest time axis: a few windows of data stay readable, not squeezed against the right edge. */
const MIN_SPAN_MS = 2 * 60 * 60 * 1000;

/**
 * Where the time axis starts: at the first window with data or an incident, not `from`, so a fresh
 * deployment's first minutes fill the plot instead of a 1-pixel sliver at the right of 24 hours.
 */
function fittedStart(
  series: readonly SeriesPoint[],
  incidents: readonly StoredIncident[],
  from: number,
  to: number,
): number {
  let earliest = to;
  for (const p of series) if (p.window >= from - WINDOW_MS) earliest = Math.min(earliest, p.window);
  for (const incident of incidents) earliest = Math.min(earliest, Date.parse(incident.startedAt));
  const start = Math.max(from, Math.min(earliest, to - MIN_SPAN_MS));
  return Math.floor(start / WINDOW_MS) * WINDOW_MS;
}

export function buildCharts(
  series: readonly SeriesPoint[],
  incidents: readonly StoredIncident[],
  names: Readonly<Record<string, string>>,
  from: number,
  to: number,
): Chart[] {
  const first = fittedStart(series, incidents, from, to);
  const windows = Math.max(1, Math.floor((to - first) / WINDOW_MS) + 1);
  const x = Array.from({ length: windows }, (_, i) => (first + i * WINDOW_MS) / 1000);
  const charts = new Map<string, Chart>();
  for (const p of series) {
    const key = `${p.kind}:${p.id}:${p.operation}`;
    let chart = charts.get(key);
    if (!chart) {
      chart = {
        key,
        title: `${names[p.id] ?? p.id} · ${OPERATION_TEXT[p.operation]}`,
        volumeLabel: p.kind === 'partner' ? 'created' : 'transactions',
        kind: p.kind,
        operation: p.operation,
        x,
        successPercent: new Array<number | null>(windows).fill(null),
        outcomes: new Array<number>(windows).fill(0),
        volume: new Array<number>(windows).fill(0),
        bands: [],
      };
      charts.set(key, chart);
    }
    const i = (p.window - first) / WINDOW_MS;
    if (i < 0 || i >= windows) continue;
    const rate = successRate(p);
    const outcomes = p.settled + p.failed + p.expired;
    chart.outcomes[i] = outcomes;
    chart.successPercent[i] = rate === null || outcomes < MIN_OUTCOMES ? null : Math.round(rate * 1000) / 10;
    chart.volume[i] = p.created;
  }
  for (const chart of charts.values()) {
    const id = chart.key.split(':')[1] as string;
    for (const incident of incidents) {
      if (incident.operation !== chart.operation || !onChart(incident, chart.kind, id)) continue;
      const start = Date.parse(incident.startedAt);
      const end = incident.resolvedAt ? Date.parse(incident.resolvedAt) : to;
      chart.bands.push({
        from: Math.max(start, first) / 1000,
        to: Math.max(end, start + WINDOW_MS) / 1000,
        label: `${incident.origin.type} ${incident.status}`,
        incidentId: incident.incidentId,
      });
    }
  }
  // Partners first, then banks by name; Cash-In before Cash-Out.
  return [...charts.values()].sort(
    (a, b) => (a.kind === b.kind ? 0 : a.kind === 'partner' ? -1 : 1) || a.title.localeCompare(b.title),
  );
}
