/** The operator alert of a reconciliation report with breaks (src/webhooks/operator-alert.ts), sent once. */
import { markAlerted } from '../db/reconciliation-reports';
import type { ReconciliationReport } from '../domain/reconciliation-matching';
import { log } from '../infra/log';
import { postOperatorAlert } from '../webhooks/operator-alert';

/** Sends the report's alert unless it went already; a failed POST is tried again at the next run. */
export async function alertOperator(env: Env, report: ReconciliationReport): Promise<void> {
  const outcome = await postOperatorAlert(env as unknown as Record<string, unknown>, {
    id: `recon_${report.date}_${report.ispb}`,
    eventType: 'RECONCILIATION_BREAKS',
    data: report,
  });
  if (outcome?.kind === 'delivered') await markAlerted(env, report.date, report.ispb, Date.now());
  else if (outcome)
    log('error', 'operator alert not delivered', { date: report.date, ispb: report.ispb, ...outcome });
}
