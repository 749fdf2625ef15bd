/**
 * HealthAnalyzer: the one Durable Object that runs the PIX health engine for the platform. The
 * queue consumer hands it observation batches; an alarm closes every 5-minute window on time even
 * when traffic stops (silence is a signal). Its rolling state is the engine snapshot, saved in the
 * same storage transaction as the ids of the observations it already counted, so a redelivered
 * batch never counts twice. Incidents go to D1 for the API and, as events, to every client in
 * scope through that client's ClientLedger outbox. History older than anything a warming-up
 * analyzer has seen bootstraps it (src/health/baselines/bootstrap.ts): recent observations wait in `parked`
 * and the alarm leaves the windows alone until the history has stopped arriving.
 */
import { DurableObject } from 'cloudflare:workers';
import { healthEventReceivers } from '../src/db/clients';
import { markPicture, saveChange } from '../src/db/health';
import {
  Analyzer,
  type AnalyzerSnapshot,
  futureProblem,
  type IncidentChange,
  isVisibleTo,
  type Observation,
  parseObservation,
  toPublicIncident,
  WINDOW_MS,
} from '../src/health';
import {
  type Bootstrap,
  bootstrapDone,
  newBootstrap,
  startsBootstrap,
} from '../src/health/baselines/bootstrap';
import { SERIES_RETENTION_MS, type SeriesPoint } from '../src/health/surface/series';
import { errorFields, log } from '../src/infra/log';
import {
  institutionName,
  KNOWN_INSTITUTIONS,
  PIX_PARTICIPANTS,
  SETTLEMENT_PARTNERS,
} from '../src/partners/catalog';
import { declaredPartners } from '../src/partners/config';
import { pruneSeries, readSeries, saveSeries } from './health/series-store';
import { AnalyzerStore } from './health/store';
import { ledgerOf } from './stubs';

/** How long after a window ends it is closed: observations may arrive this late. */
export const LATENESS_MS = 60_000;
const SEEN_TTL_MS = 6 * 60 * 60 * 1000;

const EVENT_TYPE = {
  DETECTED: 'PIX_INCIDENT_DETECTED',
  UPDATED: 'PIX_INCIDENT_UPDATED',
  RESOLVED: 'PIX_INCIDENT_RESOLVED',
} as const;

/** Institution names incidents show: the BCB's short name, a declared partner by its declared name. */
function displayNames(env: Env): Record<string, string> {
  const names: Record<string, string> = { ...PIX_PARTICIPANTS };
  for (const ispb of [...Object.keys(KNOWN_INSTITUTIONS), ...SETTLEMENT_PARTNERS.map((p) => p.ispb)]) {
    names[ispb] = institutionName(ispb);
  }
  for (const partner of declaredPartners(env)) names[partner.ispb] = partner.name;
  return names;
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: number;
  /** Recent observations held back while the analyzer bootstraps from history (part of accepted). */
  parked: number;
  changes: number;
}

function newAnalyzer(env: Env): Analyzer {
  return new Analyzer({ names: displayNames(env) });
}

type Parsed = ReturnType<typeof parseObservation> & { ok: true };

export class HealthAnalyzer extends DurableObject<Env> {
  private analyzer: Analyzer;
  private bootstrap: Bootstrap | null = null;
  /** Totals since the object was created: what the queue delivered that was not counted. */
  private counters = { accepted: 0, duplicates: 0, rejected: 0 };
  private store!: AnalyzerStore;
  /** Windows the analyzer closed since the last save: their counts go to `series` in the same transaction. */
  private closedSeries: SeriesPoint[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.analyzer = newAnalyzer(env);
    ctx.blockConcurrencyWhile(async () => {
      this.store = await AnalyzerStore.open(ctx.storage);
      const state = this.store.loadState();
      const snapshot = state.get('snapshot');
      if (snapshot)
        this.analyzer = Analyzer.restore(JSON.parse(snapshot) as AnalyzerSnapshot, {
          names: displayNames(env),
        });
      this.plot(this.analyzer);
      const bootstrap = state.get('bootstrap');
      if (bootstrap) this.bootstrap = JSON.parse(bootstrap) as Bootstrap;
      const counters = state.get('counters');
      if (counters) this.counters = { ...this.counters, ...(JSON.parse(counters) as typeof this.counters) };
    });
  }

  /** A queue batch of observations (the shape of docs/contract.md, PIX health, plus the outbox `id`). */
  async ingest(bodies: unknown[]): Promise<IngestResult> {
    const store = this.store;
    const fresh: { id: string | undefined; value: Parsed }[] = [];
    let duplicates = 0;
    let rejected = 0;
    const batchIds = new Set<string>();
    const arrivedAt = Date.now();
    for (const body of bodies) {
      const parsed = parseObservation(body);
      // One observation from the future would close every window up to it (src/health/windows/intake.ts).
      if (!parsed.ok || futureProblem(parsed.atMs, arrivedAt) !== undefined) {
        rejected++;
        continue;
      }
      const id = typeof (body as { id?: unknown }).id === 'string' ? (body as { id: string }).id : undefined;
      if (id && (batchIds.has(id) || store.isSeen(id))) {
        duplicates++;
        continue;
      }
      if (id) batchIds.add(id);
      fresh.push({ id, value: parsed });
    }
    fresh.sort((a, b) => a.value.atMs - b.value.atMs);
    const now = Date.now();
    const changes: IncidentChange[] = [];
    const parked: Parsed[] = [];
    for (const { value } of fresh) {
      if (!this.bootstrap && startsBootstrap(this.analyzer, value.atMs, now)) {
        this.analyzer = this.plot(newAnalyzer(this.env));
        this.bootstrap = newBootstrap(now);
        log('info', 'health analyzer bootstrapping from history', {
          from: new Date(value.atMs).toISOString(),
          liveFrom: new Date(this.bootstrap.liveFrom).toISOString(),
        });
      }
      if (this.bootstrap && value.atMs >= this.bootstrap.liveFrom) {
        parked.push(value);
        continue;
      }
      if (this.bootstrap) this.bootstrap.lastHistoryAt = now;
      changes.push(...this.analyzer.ingest(value.value, value.atMs));
    }
    this.counters.accepted += fresh.length;
    this.counters.duplicates += duplicates;
    this.counters.rejected += rejected;
    this.ctx.storage.transactionSync(() => {
      for (const { id } of fresh) if (id) store.markSeen(id, now);
      for (const p of parked) store.park(p.atMs, p.value);
      this.saveState();
    });
    await this.publish(changes);
    await this.armWindowAlarm();
    return { accepted: fresh.length, duplicates, rejected, parked: parked.length, changes: changes.length };
  }

  /** Closes every window that ended before `time` (a test or an operator driving time). */
  async advance(time: number): Promise<number> {
    return this.closeWindows(time, true);
  }

  override async alarm(): Promise<void> {
    await this.closeWindows(Date.now() - LATENESS_MS, false);
    await this.armWindowAlarm();
  }

  stats() {
    const parked = this.store.parkedCount();
    return {
      ...this.analyzer.getStats(),
      warm: this.analyzer.warm,
      ...this.counters,
      bootstrapping: this.bootstrap !== null,
      /** While bootstrapping: observations at or after this instant (ms) are parked. */
      liveFrom: this.bootstrap?.liveFrom ?? null,
      parked,
    };
  }

  /** Per-window traffic since `from` of every partner and the busiest institutions (operator console). */
  series(from: number, topInstitutions: number): SeriesPoint[] {
    const closed = readSeries(this.ctx.storage.sql, from, topInstitutions);
    // The open window, live from the analyzer's cells, for the partners and the institutions shown.
    const shown = new Set(closed.filter((p) => p.kind === 'institution').map((p) => p.id));
    const oldest = Math.max(from, Date.now() - SERIES_RETENTION_MS);
    const open = this.analyzer
      .openSeries()
      .filter((p) => p.window >= oldest && (p.kind === 'partner' || shown.size === 0 || shown.has(p.id)));
    return [...closed, ...open];
  }

  /** Every window this analyzer closes is plotted from the counts it was judged on. */
  private plot(analyzer: Analyzer): Analyzer {
    analyzer.seriesSink = (points) => {
      for (const p of points) this.closedSeries.push(p);
    };
    return analyzer;
  }

  /** How many of these observation ids were delivered here (counted, or parked to be counted). */
  countSeen(ids: string[]): number {
    return this.store.countSeen(ids);
  }

  /**
   * Forgets the learned state (a cold analyzer again, e.g. after a mistaken bootstrap). The seen ids
   * stay, so redeliveries remain harmless; incidents already in D1 are left as they are.
   */
  async reset(): Promise<void> {
    this.analyzer = this.plot(newAnalyzer(this.env));
    this.bootstrap = null;
    this.ctx.storage.transactionSync(() => {
      this.store.clearParked();
      this.saveState();
    });
    await this.ctx.storage.deleteAlarm();
  }

  /**
   * The alarm (`force` false) leaves a bootstrap alone while its history is still arriving: closing
   * windows on wall-clock time would make the rest of it too late. An explicit advance ends it.
   */
  private async closeWindows(time: number, force: boolean): Promise<number> {
    const changes: IncidentChange[] = [];
    const wasBootstrapping = this.bootstrap !== null;
    if (wasBootstrapping) {
      if (!force && !bootstrapDone(this.bootstrap as Bootstrap, Date.now())) return 0;
      changes.push(...this.endBootstrap());
    }
    changes.push(...this.analyzer.advanceTo(time));
    this.ctx.storage.transactionSync(() => {
      if (wasBootstrapping) this.store.clearParked();
      this.saveState();
      this.store.forgetSeenBefore(Date.now() - SEEN_TTL_MS);
      pruneSeries(this.ctx.storage.sql, Date.now());
    });
    await this.publish(changes);
    if (this.analyzer.getStats().windowsClosed > 0) await markPicture(this.env, Date.now());
    return changes.length;
  }

  /** The parked observations follow the history, in time order (the caller saves and clears them). */
  private endBootstrap(): IncidentChange[] {
    const rows = this.store.parkedRows();
    const changes: IncidentChange[] = [];
    for (const row of rows)
      changes.push(...this.analyzer.ingest(JSON.parse(row.body) as Observation, row.at));
    this.bootstrap = null;
    log('info', 'health analyzer bootstrapped', { replayed: rows.length, ...this.analyzer.getStats() });
    return changes;
  }

  /** Snapshot, bootstrap and counters; always inside the caller's storage transaction. */
  private saveState(): void {
    saveSeries(this.ctx.storage.sql, this.closedSeries, Date.now());
    this.closedSeries = [];
    this.store.putState('snapshot', this.analyzer.snapshot());
    this.store.putState('counters', this.counters);
    if (this.bootstrap) this.store.putState('bootstrap', this.bootstrap);
    else this.store.deleteState('bootstrap');
  }

  private async armWindowAlarm(): Promise<void> {
    const next = (Math.floor(Date.now() / WINDOW_MS) + 1) * WINDOW_MS + LATENESS_MS;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > next) await this.ctx.storage.setAlarm(next);
  }

  /** D1 first (the API's source), then one event per client in scope with a healthWebhookUrl. */
  private async publish(changes: IncidentChange[]): Promise<void> {
    if (changes.length === 0) return;
    const now = Date.now();
    for (const change of changes) await saveChange(this.env, change, now);
    const receivers = await healthEventReceivers(this.env);
    for (const change of changes) {
      const data = toPublicIncident(change.incident);
      for (const client of receivers) {
        if (!isVisibleTo(change.incident, { clientId: client.id, partnerIspbs: client.partners })) continue;
        try {
          await ledgerOf(this.env, client.id).emitHealthEvent({
            eventType: EVENT_TYPE[change.change],
            incidentId: data.incidentId,
            data,
            webhookUrl: client.url as string,
          });
        } catch (error) {
          log('error', 'health event fan-out failed', {
            clientId: client.id,
            incidentId: data.incidentId,
            ...errorFields(error),
          });
        }
      }
    }
  }
}
