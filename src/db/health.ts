/** D1 queries for PIX health incidents (written by the HealthAnalyzer, read by /health/pix*). */
import { and, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import type { IncidentChange, IncidentRecord, PixIncident } from '../health';
import { toPublicEvidence, toPublicIncident } from '../health';
import { healthEvidence, healthIncidents, healthState } from './schema';

export type StoredIncident = PixIncident & { affectedClientIds: string[] };

function stored(row: typeof healthIncidents.$inferSelect): StoredIncident {
  return { ...(row.incident as unknown as PixIncident), affectedClientIds: row.affectedClientIds };
}

/** One incident change: the incident row replaced, its evidence replaced, in one batch. */
export async function saveChange(env: Env, change: IncidentChange, nowMs: number): Promise<void> {
  const db = drizzle(env.DB);
  const r: IncidentRecord = change.incident;
  const incident = toPublicIncident(r) as unknown as Record<string, unknown>;
  const row = {
    id: r.incidentId,
    originType: r.origin.type,
    originId: r.origin.id,
    operation: r.operation,
    status: r.status,
    incident,
    affectedClientIds: [...r.affectedClientIds],
    startedAt: Date.parse(r.startedAt),
    updatedAt: nowMs,
  };
  const evidence = toPublicEvidence(change.evidence.length > 0 ? change.evidence : r.evidence, false);
  await db.batch([
    db.insert(healthIncidents).values(row).onConflictDoUpdate({ target: healthIncidents.id, set: row }),
    db.delete(healthEvidence).where(eq(healthEvidence.incidentId, r.incidentId)),
    ...evidence.map((item) =>
      db
        .insert(healthEvidence)
        .values({ incidentId: r.incidentId, item: item as unknown as Record<string, unknown> }),
    ),
  ]);
}

export async function markPicture(env: Env, nowMs: number): Promise<void> {
  const value = { generatedAt: nowMs };
  await drizzle(env.DB)
    .insert(healthState)
    .values({ key: 'picture', value })
    .onConflictDoUpdate({ target: healthState.key, set: { value } });
}

export async function pictureState(env: Env): Promise<{ generatedAt: number } | undefined> {
  const row = await drizzle(env.DB).select().from(healthState).where(eq(healthState.key, 'picture')).get();
  return row?.value as { generatedAt: number } | undefined;
}

export async function openIncidents(env: Env): Promise<StoredIncident[]> {
  const rows = await drizzle(env.DB)
    .select()
    .from(healthIncidents)
    .where(ne(healthIncidents.status, 'RESOLVED'))
    .all();
  return rows.map(stored);
}

/** Incidents started in [from, to] with one of the statuses, newest first. */
export async function incidentsIn(
  env: Env,
  from: number,
  to: number,
  statuses: string[],
): Promise<StoredIncident[]> {
  const rows = await drizzle(env.DB)
    .select()
    .from(healthIncidents)
    .where(
      and(
        gte(healthIncidents.startedAt, from),
        lte(healthIncidents.startedAt, to),
        statuses.length > 0 ? inArray(healthIncidents.status, statuses) : sql`1`,
      ),
    )
    .orderBy(desc(healthIncidents.startedAt), desc(healthIncidents.id))
    .all();
  return rows.map(stored);
}

/**
 * A superset of the incidents that overlap [from, to]: started by `to` and either still open or
 * changed since a day before `from` (a resolution is their last change; the day covers an engine
 * whose clock runs ahead of the save). Both halves are index range reads, so the cost follows the
 * window, not the platform's whole history. Callers apply the exact rule (resolvedAt >= from).
 */
export async function incidentsOverlapping(
  env: Env,
  from: number,
  to: number,
  statuses: string[],
): Promise<StoredIncident[]> {
  const db = drizzle(env.DB);
  const statusRule = statuses.length > 0 ? inArray(healthIncidents.status, statuses) : sql`1`;
  const [open, changed] = await Promise.all([
    db
      .select()
      .from(healthIncidents)
      .where(and(ne(healthIncidents.status, 'RESOLVED'), lte(healthIncidents.startedAt, to), statusRule))
      .all(),
    db
      .select()
      .from(healthIncidents)
      .where(
        and(
          gte(healthIncidents.updatedAt, from - 86_400_000),
          lte(healthIncidents.startedAt, to),
          statusRule,
        ),
      )
      .all(),
  ]);
  const byId = new Map<string, (typeof open)[number]>();
  for (const row of [...open, ...changed]) byId.set(row.id, row);
  return [...byId.values()]
    .sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map(stored);
}

export async function incidentWithEvidence(env: Env, id: string) {
  const db = drizzle(env.DB);
  const row = await db.select().from(healthIncidents).where(eq(healthIncidents.id, id)).get();
  if (!row) return undefined;
  const evidence = await db
    .select({ item: healthEvidence.item })
    .from(healthEvidence)
    .where(eq(healthEvidence.incidentId, id))
    .orderBy(desc(healthEvidence.seq))
    .all();
  return { incident: stored(row), evidence: evidence.map((e) => e.item) };
}

/** Partners with an open BANKING_PARTNER incident for an operation: routing avoids them. */
export async function degradedPartners(env: Env, operation: 'CASH_IN' | 'CASH_OUT'): Promise<Set<string>> {
  const rows = await drizzle(env.DB)
    .select({ id: healthIncidents.originId })
    .from(healthIncidents)
    .where(
      and(
        eq(healthIncidents.originType, 'BANKING_PARTNER'),
        eq(healthIncidents.operation, operation),
        ne(healthIncidents.status, 'RESOLVED'),
      ),
    )
    .all();
  return new Set(rows.map((r) => r.id));
}
