/**
 * The one place operator routes are guarded (docs/contract.md, Operators and the audit trail): the
 * router wraps every route whose declaration says `auth: 'operator'` with its declared `role`.
 * Who is asking is established before the handler runs; a role below the declared one answers 403
 * FORBIDDEN without running it, and that refusal is recorded (as is a valid Access assertion whose
 * email is no operator); every other changing request (anything but GET) leaves one record with its
 * result, stored with the change by the handler when it succeeded (`rc.audit.written`), else here.
 */
import { appendAudit, auditRow } from '../db/audit';
import { roleAllows } from '../domain/operators';
import { authenticateOperator, UnknownAccessIdentity } from '../http/admin-auth';
import { resultOf } from '../http/audit';
import { problem } from '../http/problem';
import type { ApiRequest, RequestContext } from '../http/request-context';
import type { OperationSpec } from '../openapi/operation';
import type { Handler } from './route-table';

const pathOf = (request: Request) => new URL(request.url).pathname;

type ErrorResponse = (error: unknown, request: ApiRequest, rc: RequestContext) => Response;

export function guardOperator(spec: OperationSpec, handler: Handler, onError: ErrorResponse): Handler {
  const required = spec.role;
  if (spec.auth !== 'operator') return handler;
  if (!required) throw new Error(`route table: ${spec.operationId} names no role`);
  const changing = spec.method !== 'get';
  return async (request, rc) => {
    let response: Response;
    try {
      rc.actor = await authenticateOperator(request, rc.env);
    } catch (error) {
      if (error instanceof UnknownAccessIdentity) {
        // Someone Access let through whom the gateway does not know: a refusal, recorded like one.
        const who = { kind: 'ACCESS' as const, email: error.email };
        await appendAudit(
          rc.env,
          auditRow(rc.requestId, who, spec.operationId, pathOf(request), 'FORBIDDEN'),
        );
      }
      return onError(error, request, rc);
    }
    const target = pathOf(request);
    if (!roleAllows(rc.actor.role, required)) {
      await appendAudit(rc.env, auditRow(rc.requestId, rc.actor, spec.operationId, target, 'FORBIDDEN'));
      return problem('FORBIDDEN', { detail: `${spec.operationId} needs the ${required} role or above` });
    }
    try {
      response = await handler(request, rc);
    } catch (error) {
      response = onError(error, request, rc);
    }
    if (changing && !rc.audit?.written) {
      const note = rc.audit ?? {};
      await appendAudit(
        rc.env,
        auditRow(
          rc.requestId,
          rc.actor,
          spec.operationId,
          note.target ?? target,
          await resultOf(response),
          note,
        ),
      );
    }
    return response;
  };
}
