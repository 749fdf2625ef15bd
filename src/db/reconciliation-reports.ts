/** D1 store of the daily reconciliation reports (schema.ts `reconciliation_reports`): one per partner and day. */
import { and, asc, between, desc, eq, isNull, min, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { backlogStart, daysFrom, isOwed } from '../domain/reconciliation-days';
import type { ReconciliationReport, ReportStatus } from '../domain/reconciliation-matching';
import { reconciliationReports } from './schema';

const d1 = (env: Env) => drizzle(env.DB);

export async function findReport(
  env: Env,
  date: string,
  ispb: string,
): Promise<{ report: ReconciliationReport; alertedAt: number | null } | undefined> {
  const row = await d1(env)
    .select()
    .from(reconciliationReports)
    .where(and(eq(reconciliationReports.date, date), eq(reconciliationReports.ispb, ispb)))
    .get();
  return row && { report: row.report as ReconciliationReport, alertedAt: row.alertedAt };
}

/**
 * Keeps the day's report (a re-run replaces it; its alert is sent again only if it had not gone).
 * What earlier runs healed is kept ahead of this run's: an auditor sees every heal ever made that day.
 * The merge is one statement, in SQL: two runs of the same day that overlap each keep their heals,
 * where a read then a write would let the later write drop the other's.
 */
export async function saveReport(env: Env, report: ReconciliationReport): Promise<ReconciliationReport> {
  const row = {
    date: report.date,
    ispb: report.ispb,
    status: report.status,
    checkedAt: Date.parse(report.checkedAt),
    report,
  };
  const merged = sql`json_set(excluded.report, '$.healed', (
    SELECT json_group_array(json(h.value)) FROM (
      SELECT 0 AS run, key, value FROM json_each(reconciliation_reports.report, '$.healed')
      UNION ALL SELECT 1 AS run, key, value FROM json_each(excluded.report, '$.healed')
      ORDER BY run, key
    ) AS h))`;
  const kept = await d1(env)
    .insert(reconciliationReports)
    .values(row)
    .onConflictDoUpdate({
      target: [reconciliationReports.date, reconciliationReports.ispb],
      set: { ...row, report: merged },
    })
    .returning({ report: reconciliationReports.report })
    .get();
  return kept.report as ReconciliationReport;
}

export interface ClosedDay {
  date: string;
  /** Its report's status; undefined when the day was never checked. */
  status?: ReportStatus;
  checkedAt?: number;
  alertedAt?: number | null;
}

/**
 * A partner's closed days up to `last` that the reconciliation may still owe (reconciliation-days.ts),
 * oldest first, each with its report's state: at most RECON_BACKLOG_DAYS rows read.
 */
export async function closedDays(env: Env, ispb: string, last: string): Promise<ClosedDay[]> {
  const first = await d1(env)
    .select({ date: min(reconciliationReports.date) })
    .from(reconciliationReports)
    .where(eq(reconciliationReports.ispb, ispb))
    .get();
  const from = backlogStart(first?.date ?? undefined, last);
  const rows = await d1(env)
    .select({
      date: reconciliationReports.date,
      status: reconciliationReports.status,
      checkedAt: reconciliationReports.checkedAt,
      alertedAt: reconciliationReports.alertedAt,
    })
    .from(reconciliationReports)
    .where(and(eq(reconciliationReports.ispb, ispb), between(reconciliationReports.date, from, last)))
    .all();
  const byDate = new Map(rows.map((r) => [r.date, r]));
  return daysFrom(from, last).map((date) => byDate.get(date) ?? { date });
}

/** How many closed days of a partner have no final report yet (GET /admin/reconciliation, the console). */
export async function daysBehind(env: Env, ispb: string, last: string): Promise<number> {
  return (await closedDays(env, ispb, last)).filter((d) => isOwed(d.status)).length;
}

export async function markAlerted(env: Env, date: string, ispb: string, at: number): Promise<void> {
  await d1(env)
    .update(reconciliationReports)
    .set({ alertedAt: at })
    .where(
      and(
        eq(reconciliationReports.date, date),
        eq(reconciliationReports.ispb, ispb),
        isNull(reconciliationReports.alertedAt),
      ),
    );
}

/** The latest reports, newest day first (the console's list). */
export async function recentReports(env: Env, limit: number): Promise<ReconciliationReport[]> {
  const rows = await d1(env)
    .select({ report: reconciliationReports.report })
    .from(reconciliationReports)
    .orderBy(desc(reconciliationReports.date), asc(reconciliationReports.ispb))
    .limit(limit)
    .all();
  return rows.map((r) => r.report as ReconciliationReport);
}
