/**
 * When the daily reconciliation runs (src/cron/reconcile-day.ts): on the minute cron, for every
 * declared real partner, every closed America/Sao_Paulo day it still owes (src/domain/
 * reconciliation-days.ts: no report yet, or a PENDING one because the partner was down, the day was
 * too large for one run, or the cron never ran), oldest first, at most RECON_DAYS_PER_RUN days a
 * run, until each report is final (each run alerts its own breaks). The last closed day's final
 * report with breaks whose alert did not go out is alerted again.
 */
import { closedDays, findReport } from '../db/reconciliation-reports';
import { isOwed, lastClosedDay } from '../domain/reconciliation-days';
import { errorFields, log } from '../infra/log';
import { declaredPartners } from '../partners/config';
import { bcbPartner } from '../partners/port-registry';
import { reconcileDay } from './reconcile-day';
import { alertOperator } from './reconciliation-alert';

export { lastClosedDay, RECON_LAG_MS } from '../domain/reconciliation-days';

/** A PENDING day is tried again at most this often. */
const PENDING_RETRY_MS = 10 * 60_000;
/** Days reconciled per partner per cron run: each reads the partner's whole day and every ledger. */
export const RECON_DAYS_PER_RUN = 3;

export async function reconcileClosedDays(env: Env, now = Date.now()): Promise<void> {
  const last = lastClosedDay(now);
  for (const declared of declaredPartners(env)) {
    if (declared.kind !== 'bcb-api-pix') continue;
    const partner = bcbPartner(env, declared.ispb);
    if (!partner) continue;
    let days: Awaited<ReturnType<typeof closedDays>>;
    try {
      days = await closedDays(env, declared.ispb, last);
    } catch (error) {
      log('error', 'daily reconciliation failed', { date: last, ispb: declared.ispb, ...errorFields(error) });
      continue;
    }
    const due = days
      .filter((d) => isOwed(d.status) && (d.checkedAt === undefined || now - d.checkedAt >= PENDING_RETRY_MS))
      .slice(0, RECON_DAYS_PER_RUN);
    for (const { date } of due)
      try {
        await reconcileDay(env, partner, date);
      } catch (error) {
        log('error', 'daily reconciliation failed', { date, ispb: declared.ispb, ...errorFields(error) });
      }
    const lastDay = days.at(-1);
    if (lastDay?.status === 'BREAKS' && lastDay.alertedAt === null)
      try {
        const kept = await findReport(env, last, declared.ispb);
        if (kept && kept.alertedAt === null) await alertOperator(env, kept.report);
      } catch (error) {
        log('error', 'reconciliation alert failed', {
          date: last,
          ispb: declared.ispb,
          ...errorFields(error),
        });
      }
    const behind = days.filter((d) => isOwed(d.status)).length;
    if (behind > RECON_DAYS_PER_RUN)
      log('warn', 'daily reconciliation is behind', {
        ispb: declared.ispb,
        daysBehind: behind,
        oldest: due[0]?.date,
      });
  }
}
