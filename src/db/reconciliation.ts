/** D1 store of the daily reconciliation reports (schema.ts `reconciliation_reports`): one per partner and day. */
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import type { ReconciliationReport } from '../domain/reconciliation';
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

/** Keeps the day's report (a re-run replaces it; its alert is sent again only if it had not gone). */
export async function saveReport(env: Env, report: ReconciliationReport): Promise<void> {
  const row = {
    date: report.date,
    ispb: report.ispb,
    status: report.status,
    checkedAt: Date.parse(report.checkedAt),
    report,
  };
  await d1(env)
    .insert(reconciliationReports)
    .values(row)
    .onConflictDoUpdate({ target: [reconciliationReports.date, reconciliationReports.ispb], set: row });
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
