/**
 * The payer bank's consent pages of the open-finance flow, simulated in staging (docs/contract.md,
 * Sandbox): staging-only operations, documented everywhere; their handlers
 * (./handlers-open-finance.ts) are bound by ./routes-staging.ts, which only the staging entry imports.
 */
import type { OperationSpec } from '../../openapi/operation';
import { locatorParameter } from '../../openapi/parameters';
import { HTML } from './shared';

const REDIRECT = {
  description: 'Back to the integrator: `redirectUrl` with `transactionId` and `status` query parameters.',
  headers: {
    Location: { description: 'Where the browser goes next.', schema: { type: 'string', format: 'uri' } },
  },
};

const common = {
  tag: 'Open finance (staging)',
  auth: 'none' as const,
  stagingOnly: true,
  parameters: [locatorParameter],
};

export const openFinanceOperations: OperationSpec[] = [
  {
    ...common,
    method: 'get',
    path: '/open-finance/{locator}',
    operationId: 'openFinancePage',
    summary: "The payer bank's consent page",
    description:
      "`openFinanceData.paymentUrl` opens this page, which plays the payer bank's consent " +
      'screen. Staging and the sandbox partner only: on a real partner POST /cash-in with `openFinance` ' +
      "answers 422 RULE_VIOLATION before the PSP is asked, because a PSP's API Pix registers charges " +
      'for Pix payment, not payment initiation.',
    success: {
      '200': {
        description: 'Consent page with Authorize and Cancel buttons.',
        contentType: 'text/html',
        schema: HTML,
      },
      '410': {
        description: 'The charge is no longer AWAITING_PAYMENT.',
        contentType: 'text/html',
        schema: HTML,
      },
    },
    errors: ['NOT_FOUND'],
  },
  {
    ...common,
    method: 'post',
    path: '/open-finance/{locator}/authorize',
    operationId: 'openFinanceAuthorize',
    summary: 'Authorize the payment',
    description:
      'Pays the Cash-In through the same settlement path as the network, then redirects to `redirectUrl`.',
    success: {
      '303': REDIRECT,
      '422': {
        description: 'Payment not made (an HTML page saying why).',
        contentType: 'text/html',
        schema: HTML,
      },
    },
    errors: ['NOT_FOUND'],
  },
  {
    ...common,
    method: 'post',
    path: '/open-finance/{locator}/decline',
    operationId: 'openFinanceDecline',
    summary: 'Decline the payment',
    description: 'Redirects to `redirectUrl` with `status=DECLINED`; the Cash-In stays AWAITING_PAYMENT.',
    success: { '303': REDIRECT },
    errors: ['NOT_FOUND'],
  },
];
