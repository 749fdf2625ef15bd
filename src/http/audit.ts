/**
 * The audit trail's records as the edge writes them (docs/contract.md, Operators and the audit
 * trail): who, what, on what, before and after, the result and the request id. A handler that
 * changes D1 batches `auditRecord(...)` with its own statements and marks the note `written`.
 */
import { type AuditRow, auditRow } from '../db/audit';
import type { Actor } from '../domain/operators';
import type { RequestContext } from './request-context';

/** The result a record keeps: OK for a success, else the Problem's code (or the bare status). */
export async function resultOf(response: Response): Promise<string> {
  if (response.ok || response.status < 400) return 'OK';
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    if (typeof body.code === 'string') return body.code;
  } catch {
    // Not a Problem: the status says enough.
  }
  return String(response.status);
}

/**
 * The success record of the request `rc` is answering, for a handler that stores it in the same
 * batch as its change; it calls `recorded(rc)` once that batch committed.
 */
export function changeRecord(
  rc: RequestContext,
  action: string,
  target: string,
  note: { before?: unknown; after?: unknown },
): AuditRow {
  rc.audit = { target, ...note };
  return auditRow(rc.requestId, rc.actor as Actor, action, target, 'OK', note);
}

export function recorded(rc: RequestContext): void {
  rc.audit = { ...rc.audit, written: true };
}
