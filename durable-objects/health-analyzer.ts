/**
 * HealthAnalyzer: the one Durable Object that runs the PIX health engine for the platform. The
 * queue consumer hands it observation batches; an alarm closes every 5-minute window on time even
 * when traffic stops (silence is a signal). Its rolling state is the engine snapshot, saved in the
 * same storage transaction as the ids of the observations it already counted, so a redelivered
 * batch never counts twice. Incidents go to D1 for the API and, as events, to every client in
 * scope through that client's ClientLedger outbox.
 */
import { DurableObject } from 'cloudflare:workers';
import { isNotNull } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { markPicture, saveChange } from '../src/db/health';
import { clients } from '../src/db/schema';
import {
  Analyzer,
  type AnalyzerSnapshot,
  type IncidentChange,
  isVisibleTo,
  parseObservation,
  toPublicIncident,
  WINDOW_MS,
} from '../src/health';
import { ledgerOf } from '../src/http/context';
import { errorFields, log } from '../src/http/log';
import { institutionName, KNOWN_INSTITUTIONS, SETTLEMENT_PARTNERS } from '../src/partners/catalog';

/** How long after a window ends it is closed: observations may arrive this late. */
export const LATENESS_MS = 60_000;
const SEEN_TTL_MS = 6 * 60 * 60 * 1000;

const EVENT_TYPE = {
  DETECTED: 'PIX_INCIDENT_DETECTED',
  UPDATED: 'PIX_INCIDENT_UPDATED',
  RESOLVED: 'PIX_INCIDENT_RESOLVED',
} as const;

function displayNames(): Record<string, string> {
  const names: Record<string, string> = {};
  for (const ispb of [...Object.keys(KNOWN_INSTITUTIONS), ...SETTLEMENT_PARTNERS.map((p) => p.ispb)]) {
    names[ispb] = institutionName(ispb);
  }
  return names;
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: number;
  changes: number;
}

export class HealthAnalyzer extends DurableObject<Env> {
  private analyzer: Analyzer = new Analyzer({ names: displayNames() });

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const sql = ctx.storage.sql;
      sql.exec('CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      sql.exec('CREATE TABLE IF NOT EXISTS seen (id TEXT PRIMARY KEY, at INTEGER NOT NULL)');
      const row = sql.exec<{ value: string }>("SELECT value FROM state WHERE key = 'snapshot'").toArray()[0];
      if (row)
        this.analyzer = Analyzer.restore(JSON.parse(row.value) as AnalyzerSnapshot, {
          names: displayNames(),
        });
    });
  }

  /** A queue batch of observations (decisions §7 shape plus the outbox `id`). */
  async ingest(bodies: unknown[]): Promise<IngestResult> {
    const sql = this.ctx.storage.sql;
    const fresh: { id: string | undefined; value: ReturnType<typeof parseObservation> & { ok: true } }[] = [];
    let duplicates = 0;
    let rejected = 0;
    for (const body of bodies) {
      const parsed = parseObservation(body);
      if (!parsed.ok) {
        rejected++;
        continue;
      }
      const id = typeof (body as { id?: unknown }).id === 'string' ? (body as { id: string }).id : undefined;
      if (id && sql.exec('SELECT 1 FROM seen WHERE id = ?', id).toArray().length > 0) {
        duplicates++;
        continue;
      }
      fresh.push({ id, value: parsed });
    }
    fresh.sort((a, b) => a.value.atMs - b.value.atMs);
    const changes: IncidentChange[] = [];
    for (const { value } of fresh) changes.push(...this.analyzer.ingest(value.value, value.atMs));
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      for (const { id } of fresh)
        if (id) sql.exec('INSERT OR IGNORE INTO seen (id, at) VALUES (?, ?)', id, now);
      this.saveSnapshot();
    });
    await this.publish(changes);
    await this.armWindowAlarm();
    return { accepted: fresh.length, duplicates, rejected, changes: changes.length };
  }

  /** Closes every window that ended before `time` (the alarm, or a test driving time). */
  async advance(time: number): Promise<number> {
    const changes = this.analyzer.advanceTo(time);
    this.ctx.storage.transactionSync(() => {
      this.saveSnapshot();
      this.ctx.storage.sql.exec('DELETE FROM seen WHERE at < ?', Date.now() - SEEN_TTL_MS);
    });
    await this.publish(changes);
    if (this.analyzer.getStats().windowsClosed > 0) await markPicture(this.env, Date.now());
    return changes.length;
  }

  override async alarm(): Promise<void> {
    await this.advance(Date.now() - LATENESS_MS);
    await this.armWindowAlarm();
  }

  stats() {
    return { ...this.analyzer.getStats(), warm: this.analyzer.warm };
  }

  private saveSnapshot(): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO state (key, value) VALUES ('snapshot', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      JSON.stringify(this.analyzer.snapshot()),
    );
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
    const receivers = await drizzle(this.env.DB)
      .select({ id: clients.id, partners: clients.partners, url: clients.healthWebhookUrl })
      .from(clients)
      .where(isNotNull(clients.healthWebhookUrl))
      .all();
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
