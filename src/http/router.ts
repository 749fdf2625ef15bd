/**
 * The HTTP surface: every route of the spec and of decisions.md, registered once. Errors leave
 * through one handler with three tiers: responses decided early (auth), our Problem errors, and
 * anything unexpected (logged, 500 INTERNAL_ERROR with a trace id and nothing internal).
 */
import { Router } from 'itty-router';
import { errorFields, log } from '../infra/log';
import { handleDocs, handleDocsScript, handleOpenApi } from '../openapi/routes';
import { EarlyResponse } from './auth';
import type { ApiRequest, RequestContext } from './context';
import { ProblemError } from './errors';
import { problem } from './problem';
import { handleBalance, handleStatement, handleSweep, handleTopUp } from './routes/account';
import { handleArchiveClient } from './routes/admin-archive';
import { handleApproveCashOut, handleRejectCashOut } from './routes/admin-cash-outs';
import {
  handleCreateClient,
  handleDeactivateApplicationToken,
  handleDeactivateCryptoToken,
  handleGetClient,
  handlePatchClient,
  handleRotateCryptoToken,
} from './routes/admin-clients';
import { handleAdvanceAnalyzer, handleAnalyzerState, handleImportObservations } from './routes/admin-health';
import { handleClearFaults, handleInjectFault } from './routes/admin-partners';
import { handleListWebhookDeliveries, handleRetryWebhookDelivery } from './routes/admin-webhooks';
import { handleIssueToken } from './routes/auth-token';
import {
  handleCancelCashIn,
  handleCashInSummary,
  handleCreateCashIn,
  handleGetCashIn,
  handleListCashIns,
  handleRefundCashIn,
} from './routes/cash-in';
import {
  handleCashOutSummary,
  handleCreateCashOut,
  handleGetCashOut,
  handleListCashOuts,
} from './routes/cash-out';
import { handleGetIncident, handleHealthPicture, handleListIncidents } from './routes/health';
import {
  handleOpenFinanceAuthorize,
  handleOpenFinanceDecline,
  handleOpenFinancePage,
} from './routes/open-finance';
import { handlePartnerPixCallback, loggablePath } from './routes/partner-webhook';
import { handleChargeLocation, handleJwks } from './routes/pix-location';
import {
  handleSandboxCashInReturn,
  handleSandboxCashOutReturn,
  handleSandboxDeposit,
  handleSandboxExpire,
  handleSandboxPay,
} from './routes/sandbox';

type Args = [RequestContext];

function errorResponse(error: unknown, request: ApiRequest, rc: RequestContext): Response {
  if (error instanceof EarlyResponse) return error.response;
  if (error instanceof ProblemError) {
    return problem(error.code, {
      ...(error.detail !== undefined && { detail: error.detail }),
      ...error.extras,
    });
  }
  log('error', 'unhandled error', {
    requestId: rc.requestId,
    path: loggablePath(new URL(request.url).pathname),
    ...errorFields(error),
  });
  return problem('INTERNAL_ERROR', {
    detail: 'An unexpected error occurred; retry with backoff and quote the traceId to support',
    traceId: rc.requestId,
    instance: new URL(request.url).pathname,
  });
}

export const router = Router<ApiRequest, Args>({
  catch: errorResponse,
});

router
  .post('/auth/token', handleIssueToken)
  .post('/cash-in', handleCreateCashIn)
  .get('/cash-in', handleListCashIns)
  .get('/cash-in/summary', handleCashInSummary)
  .get('/cash-in/:id', handleGetCashIn)
  .post('/cash-in/:id/refund', handleRefundCashIn)
  .post('/cash-in/:id/cancel', handleCancelCashIn)
  .get('/health/pix', handleHealthPicture)
  .get('/health/pix/incidents', handleListIncidents)
  .get('/health/pix/incidents/:id', handleGetIncident)
  .post('/cash-out', handleCreateCashOut)
  .get('/cash-out', handleListCashOuts)
  .get('/cash-out/summary', handleCashOutSummary)
  .get('/cash-out/:id', handleGetCashOut)
  .post('/sandbox/cash-out/:id/return', handleSandboxCashOutReturn)
  .post('/admin/clients/:clientId/cash-out/:id/approve', handleApproveCashOut)
  .post('/admin/clients/:clientId/cash-out/:id/reject', handleRejectCashOut)
  .post('/sandbox/cash-in/:id/pay', handleSandboxPay)
  .post('/sandbox/cash-in/:id/return', handleSandboxCashInReturn)
  .post('/sandbox/cash-in/:id/expire', handleSandboxExpire)
  .post('/sandbox/accounts/:number/deposit', handleSandboxDeposit)
  // Fixed paths first; none of them has the shape /account/{number}/statement anyway.
  .get('/account/balance', handleBalance)
  .post('/account/rebalance/top-up', handleTopUp)
  .post('/account/rebalance/sweep', handleSweep)
  .get('/account/:number/statement', handleStatement)
  .get('/pix/qr/:locator', handleChargeLocation)
  .get('/.well-known/jwks.json', handleJwks)
  .get('/open-finance/:locator', handleOpenFinancePage)
  .post('/open-finance/:locator/authorize', handleOpenFinanceAuthorize)
  .post('/open-finance/:locator/decline', handleOpenFinanceDecline)
  .post('/admin/clients', handleCreateClient)
  .get('/admin/clients/:clientId', handleGetClient)
  .patch('/admin/clients/:clientId', handlePatchClient)
  .post('/admin/clients/:clientId/crypto-token', handleRotateCryptoToken)
  .delete('/admin/clients/:clientId/crypto-token', handleDeactivateCryptoToken)
  .delete('/admin/clients/:clientId/application-token', handleDeactivateApplicationToken)
  .post('/admin/clients/:clientId/archive', handleArchiveClient)
  .get('/admin/clients/:clientId/webhook-deliveries', handleListWebhookDeliveries)
  .post('/admin/clients/:clientId/webhook-deliveries/:eventId/retry', handleRetryWebhookDelivery)
  .post('/partners/:ispb/webhook/pix', handlePartnerPixCallback)
  .post('/partners/:ispb/webhook/:secret/pix', handlePartnerPixCallback)
  .post('/admin/partners/:ispb/faults', handleInjectFault)
  .delete('/admin/partners/:ispb/faults', handleClearFaults)
  .post('/admin/health/observations', handleImportObservations)
  .get('/admin/health/analyzer', handleAnalyzerState)
  .post('/admin/health/analyzer/advance', handleAdvanceAnalyzer)
  .get('/openapi.json', handleOpenApi)
  .get('/docs', handleDocs)
  .get('/docs/redoc.standalone.js', handleDocsScript);

/** Methods registered for a path, to tell 405 from 404. */
export function allowedMethods(pathname: string): string[] {
  const methods = new Set<string>();
  for (const [method, pattern] of router.routes) {
    if (method !== 'ALL' && pattern.test(pathname)) methods.add(method);
  }
  return [...methods];
}

router.all('*', (request: ApiRequest) => {
  const { pathname } = new URL(request.url);
  const allowed = allowedMethods(pathname);
  if (allowed.length > 0) {
    return problem('METHOD_NOT_ALLOWED', {
      detail: `${request.method} is not allowed on ${pathname}`,
      headers: { allow: allowed.join(', ') },
    });
  }
  return problem('NOT_FOUND', { detail: `No route for ${request.method} ${pathname}` });
});
