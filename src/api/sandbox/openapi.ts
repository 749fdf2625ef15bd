/**
 * Sandbox operations (docs/contract.md, Sandbox): the payment network's side, staging only, no
 * DigitalSignature.
 */

import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { accountNumberParameter, cashInIdParameter, cashOutIdParameter } from '../../openapi/parameters';
import { Deposit } from '../account/schemas';
import * as cashIn from '../cash-in/shared';
import * as cashOut from '../cash-out/shared';
import { sandboxChargeAsOfSpec, sandboxChargeSpecs, sandboxRecurrenceSpecs } from './openapi-recurrences';
import {
  SandboxCashInReturnSchema,
  SandboxCashOutReturnSchema,
  SandboxDepositSchema,
  SandboxDisputeCloseSchema,
  SandboxDisputeSchema,
  SandboxPaySchema,
} from './schemas';

const ex = { ...cashIn, ...cashOut };

const TAG = 'Sandbox';

const sandbox = (spec: Omit<OperationSpec, 'tag' | 'auth' | 'stagingOnly'>): OperationSpec => ({
  ...spec,
  tag: TAG,
  auth: 'client',
  stagingOnly: true,
});

export const sandboxOperations: OperationSpec[] = [
  sandbox({
    method: 'post',
    path: '/sandbox/cash-in/{id}/pay',
    operationId: 'sandboxPayCashIn',
    summary: 'Pay a Cash-In now',
    description:
      'The network confirms the payment now: PAID and `CASHIN_PAID` sent. Only from ' +
      'AWAITING_PAYMENT before `expiredAt`, else 422 RULE_VIOLATION. `payer` is the account that pays: ' +
      "it becomes `paidBy` (each field defaults to the declared payer's, the bank to a sandbox one), " +
      "and `payer.bankData`; the Cash-In's declared `payer.name` and `payer.document` stay as they " +
      "were. A payment the client's payer rules do not allow (`paidBy.document` in " +
      '`blockedPayerDocuments`, or another payer under `payerPolicy` DECLARED_PAYER) is PAID with ' +
      '`paidBy.allowed` false and no `CASHIN_PAID`, and is refunded automatically (`PAYER_NOT_ALLOWED`, ' +
      'then `CASHIN_REFUNDED`). The body is optional; defaults are supplied.',
    parameters: [cashInIdParameter],
    body: {
      schema: SandboxPaySchema,
      required: false,
      examples: {
        payer: example('A specific payer bank', {
          payer: {
            name: 'Maria da Silva',
            document: '12345678909',
            bankData: { ispb: '60701190', branch: '0001', account: '123456-7' },
          },
        }),
      },
    },
    success: {
      '200': {
        description: 'The Cash-In as GET returns it, PAID.',
        schema: cashIn.CashIn,
        examples: { paid: example('Paid', ex.cashInPaid) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
  }),
  sandbox({
    method: 'post',
    path: '/sandbox/cash-in/{id}/return',
    operationId: 'sandboxReturnCashIn',
    summary: 'Bank-initiated devolution of a paid Cash-In',
    description:
      'A MED claim or a customer request at the payer bank: what is left of the Cash-In goes ' +
      "back, PAID → REFUNDED with the given `reason`. A bank's devolution is a fact: it is never " +
      'refused for a short balance (the TRANSACTIONAL balance goes negative, its statement entry ' +
      'labelled `typeRaw` `DEVOLUCAO PIX PELO BANCO`, and Cash-Outs wait for money to come in) nor ' +
      "while the client's own refund is in flight (the return supersedes it; if the partner settles " +
      'that refund too, the second outflow is booked as well). Only a Cash-In that is not PAID answers ' +
      '422 RULE_VIOLATION.',
    parameters: [cashInIdParameter],
    body: {
      schema: SandboxCashInReturnSchema,
      examples: { fraud: example('MED claim', { reason: 'FRAUD' }) },
    },
    success: {
      '200': {
        description: 'The Cash-In as GET returns it, REFUNDED.',
        schema: cashIn.CashIn,
        examples: { refunded: example('Refunded', { ...ex.cashInRefunded, reason: 'FRAUD' }) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
  }),
  sandbox({
    method: 'post',
    path: '/sandbox/cash-in/{id}/expire',
    operationId: 'sandboxExpireCashIn',
    summary: 'End the payment window now',
    description:
      'The Cash-In becomes EXPIRED at once and `CASHIN_EXPIRED` is sent; `expiredAt` keeps the end of the original window.',
    parameters: [cashInIdParameter],
    success: {
      '200': {
        description: 'The Cash-In as GET returns it, EXPIRED.',
        schema: cashIn.CashIn,
        examples: { expired: example('Expired', { ...ex.cashInAwaiting, status: 'EXPIRED' }) },
      },
    },
    errors: ['CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
  }),
  sandbox({
    method: 'post',
    path: '/sandbox/cash-in/{id}/dispute',
    operationId: 'sandboxOpenDispute',
    summary: 'The payer bank opens a MED dispute',
    description:
      'On a PAID Cash-In of the sandbox partner: the dispute is recorded with `respondBy` 72 ' +
      'hours from now and `blockedAmount` (the body `amount`, else what is neither refunded nor being ' +
      'refunded) is held on the TRANSACTIONAL account at once; `CASHIN_DISPUTE_OPENED` is sent. An ' +
      '`amount` above what can be blocked answers 400 naming `amount`; a Cash-In not PAID, or already ' +
      "disputed, 422 RULE_VIOLATION. A real partner's Cash-In answers 404.",
    parameters: [cashInIdParameter],
    body: {
      schema: SandboxDisputeSchema,
      required: false,
      examples: { whole: example('The whole payment', {}), part: example('Part of it', { amount: 50 }) },
    },
    success: {
      '201': {
        description: 'The Cash-In as GET returns it, with `dispute`.',
        schema: cashIn.CashIn,
        examples: { disputed: example('Disputed', ex.cashInDisputed) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
  }),
  sandbox({
    method: 'post',
    path: '/sandbox/cash-in/{id}/dispute/close',
    operationId: 'sandboxCloseDispute',
    summary: 'The payer bank decides a MED dispute',
    description:
      'REJECTED or CANCELLED: the hold is released and `CASHIN_DISPUTE_CLOSED` is sent. ' +
      'ACCEPTED: the bank returns `blockedAmount` to the payer through the bank-return path in the same ' +
      'transaction (the hold is consumed); the whole Cash-In returned ends it REFUNDED with reason ' +
      'FRAUD (`CASHIN_DISPUTE_CLOSED` then `CASHIN_REFUNDED` are sent), less than the whole leaves it ' +
      'PAID (`CASHIN_DISPUTE_CLOSED` only) until a return of the rest. No open dispute: 422 ' +
      'RULE_VIOLATION.',
    parameters: [cashInIdParameter],
    body: {
      schema: SandboxDisputeCloseSchema,
      examples: { rejected: example('Rejected', { outcome: 'REJECTED' }) },
    },
    success: {
      '200': {
        description: 'The Cash-In as GET returns it.',
        schema: cashIn.CashIn,
        examples: {
          rejected: example('Rejected', {
            ...ex.cashInDisputed,
            dispute: {
              ...ex.disputeOpen,
              status: 'REJECTED',
              closedAt: '2026-11-23T10:00:00.000-03:00',
            },
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
  }),
  sandbox({
    method: 'post',
    path: '/sandbox/cash-out/{id}/return',
    operationId: 'sandboxReturnCashOut',
    summary: "The payee's bank returns a completed Cash-Out",
    description:
      'COMPLETED → REFUNDED with the given `reason`; the money comes back to the TRANSACTIONAL account and `CASHOUT_REFUNDED` is sent.',
    parameters: [cashOutIdParameter],
    body: {
      schema: SandboxCashOutReturnSchema,
      examples: { payee: example('Payee asked for it', { reason: 'PAYEE_REQUESTED' }) },
    },
    success: {
      '200': {
        description: 'The Cash-Out as GET returns it, REFUNDED.',
        schema: cashOut.CashOut,
        examples: {
          refunded: example('Refunded', {
            ...ex.cashOutCompleted,
            endToEndId: 'D1823612020261121140012345678901',
            originalEndToEndId: ex.cashOutCompleted.endToEndId,
            status: 'REFUNDED',
            reason: 'PAYEE_REQUESTED',
            refundedAt: '2026-11-21T11:00:00.000-03:00',
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'CASHOUT_NOT_FOUND', 'RULE_VIOLATION'],
  }),
  sandbox({
    method: 'post',
    path: '/sandbox/accounts/{number}/deposit',
    operationId: 'sandboxDeposit',
    summary: 'Credit one of the client accounts',
    description: 'Money arrives from outside (statement type TRANSFER_IN).',
    parameters: [accountNumberParameter],
    body: { schema: SandboxDepositSchema, examples: { deposit: example('R$ 1.000,00', { amount: 1000 }) } },
    success: {
      '201': {
        description: 'Credited.',
        schema: Deposit,
        examples: {
          deposit: example('Deposit', {
            account: {
              number: '10000001-5',
              type: 'TRANSACTIONAL',
              bank: { ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' },
            },
            entry: {
              id: 'LE0000000002',
              date: '2026-11-21T09:00:00.000-03:00',
              direction: 'CREDIT',
              type: 'TRANSFER_IN',
              typeRaw: 'TRANSFER_IN',
              amount: 1000,
              balanceAfter: 1000,
              description: 'Deposito sandbox',
            },
            balance: 1000,
            available: 1000,
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'ACCOUNT_NOT_FOUND'],
  }),
  ...sandboxRecurrenceSpecs.map(sandbox),
  sandbox(sandboxChargeAsOfSpec),
  ...sandboxChargeSpecs.map(sandbox),
];
