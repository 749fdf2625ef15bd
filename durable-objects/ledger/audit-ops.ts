/**
 * An operator's change made in this object and its audit record, in one transaction
 * (docs/contract.md, Operators and the audit trail): the operation's own transaction nests in it
 * as a savepoint, and the record is kept only when the change happened. It is then forwarded to
 * D1's trail; one that D1 did not take is forwarded by the next sweep (D1 skips one it has).
 */
import { type AuditRow, appendAuditOnce } from '../../src/db/audit';
import type { OperationResult } from '../../src/domain/result';
import { errorFields, log } from '../../src/infra/log';
import { dropAudit, keepAudit, pendingAudit } from './audit-outbox-store';
import type { LedgerContext } from './ledger-context';

export async function audited<T>(
  ledger: LedgerContext,
  env: Env,
  audit: AuditRow | undefined,
  change: () => OperationResult<T>,
): Promise<OperationResult<T>> {
  if (!audit) return change();
  const result = ledger.storage.transactionSync(() => {
    const outcome = change();
    if (outcome.ok) keepAudit(ledger.db, audit);
    return outcome;
  });
  if (result.ok) await forwardAudit(ledger, env);
  return result;
}

/**
 * An operator's run over many transactions (an archive run): its record, with what the run did, is
 * kept in the transaction that concludes it (`run` calls `conclude` there), then forwarded.
 */
export async function auditedRun<T>(
  ledger: LedgerContext,
  env: Env,
  audit: AuditRow | undefined,
  run: (
    ledger: LedgerContext,
    conclude: ((after: Record<string, unknown>) => void) | undefined,
  ) => Promise<T>,
): Promise<T> {
  if (!audit) return run(ledger, undefined);
  const before = (audit.after ?? {}) as Record<string, unknown>;
  const result = await run(ledger, (after) =>
    keepAudit(ledger.db, { ...audit, after: { ...before, ...after } }),
  );
  await forwardAudit(ledger, env);
  return result;
}

export async function forwardAudit(ledger: LedgerContext, env: Env): Promise<void> {
  for (let rows = pendingAudit(ledger.db, 50); rows.length > 0; rows = pendingAudit(ledger.db, 50)) {
    try {
      await appendAuditOnce(env, rows);
    } catch (error) {
      log('warn', 'audit records not forwarded yet', errorFields(error));
      return;
    }
    dropAudit(
      ledger.db,
      rows.map((row) => row.id as string),
    );
  }
}
