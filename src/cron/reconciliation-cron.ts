/**
 * When the daily reconciliation runs (src/cron/reconciliation.ts): on the minute cron, for
 * every declared real partner, the last America/Sao_Paulo day that closed at least RECON_LAG_MS ago
 * (a PSP may list a Pix a little after its time), until its report is final. A PENDING report (the
 * partner was down, or the day is too large for one run) is run again; a final report with breaks
 * whose alert did not go out is alerted again.
 */
import { findReport } from '../db/reconciliation';
import { brtDate, brtStartOfDay } from '../domain/time';
import { errorFields, log } from '../infra/log';
import { declaredPartners } from '../partners/config';
import { bcbPartner } from '../partners/port-registry';
import { reconcileDay } from './reconciliation';
import { alertOperator } from './reconciliation-alert';

/** How long after midnight the day is read: late listings at the partner settle by then. */
export const RECON_LAG_MS = 30 * 60_000;
/** A PENDING day is tried again at most this often. */
const PENDING_RETRY_MS = 10 * 60_000;

/** The last day closed RECON_LAG_MS ago or more, as YYYY-MM-DD in America/Sao_Paulo. */
export function lastClosedDay(now: number): string {
  const today = brtDate(now - RECON_LAG_MS);
  return brtDate(brtStartOfDay(today) - 1);
}

export async function reconcileClosedDays(env: Env, now = Date.now()): Promise<void> {
  const date = lastClosedDay(now);
  for (const declared of declaredPartners(env)) {
    if (declared.kind !== 'bcb-api-pix') continue;
    try {
      const partner = bcbPartner(env, declared.ispb);
      if (!partner) continue;
      const kept = await findReport(env, date, declared.ispb);
      if (
        !kept ||
        (kept.report.status === 'PENDING' && now - Date.parse(kept.report.checkedAt) >= PENDING_RETRY_MS)
      )
        await reconcileDay(env, partner, date);
      else if (kept.report.status === 'BREAKS' && kept.alertedAt === null)
        await alertOperator(env, kept.report);
    } catch (error) {
      log('error', 'daily reconciliation failed', { date, ispb: declared.ispb, ...errorFields(error) });
    }
  }
}
