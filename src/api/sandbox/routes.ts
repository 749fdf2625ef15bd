/**
 * The sandbox resource's route table: each operation of ./openapi bound to its handler. All of them
 * are staging-only: only the staging entry's route table (src/staging/routes.ts) imports this.
 */
import { bindStagingRoutes } from '../route-table';
import {
  handleSandboxCashInReturn,
  handleSandboxCashOutReturn,
  handleSandboxDeposit,
  handleSandboxDispute,
  handleSandboxDisputeClose,
  handleSandboxExpire,
  handleSandboxPay,
} from './handlers';
import {
  handleSandboxApproveRecurrence,
  handleSandboxCancelRecurrence,
  handleSandboxChargeRecurrence,
  handleSandboxFailChargeAttempt,
  handleSandboxPayerCancelCharge,
  handleSandboxRejectRecurrence,
} from './handlers-recurrences';
import { sandboxOperations } from './openapi';

export const sandboxRoutes = bindStagingRoutes(sandboxOperations, {
  sandboxPayCashIn: handleSandboxPay,
  sandboxReturnCashIn: handleSandboxCashInReturn,
  sandboxExpireCashIn: handleSandboxExpire,
  sandboxOpenDispute: handleSandboxDispute,
  sandboxCloseDispute: handleSandboxDisputeClose,
  sandboxReturnCashOut: handleSandboxCashOutReturn,
  sandboxDeposit: handleSandboxDeposit,
  sandboxApproveRecurrence: handleSandboxApproveRecurrence,
  sandboxRejectRecurrence: handleSandboxRejectRecurrence,
  sandboxCancelRecurrence: handleSandboxCancelRecurrence,
  sandboxChargeRecurrence: handleSandboxChargeRecurrence,
  sandboxFailChargeAttempt: handleSandboxFailChargeAttempt,
  sandboxPayerCancelCharge: handleSandboxPayerCancelCharge,
});
