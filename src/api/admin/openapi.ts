/**
 * Operator API (docs/contract.md, Operator API): `Authorization: Bearer <ADMIN_TOKEN>`; 503 while it is
 * unset.
 */

import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import {
  cashOutIdParameter,
  clientIdParameter,
  deliveryQueryParameters,
  eventIdParameter,
  ispbParameter,
} from '../../openapi/parameters';
import * as cashIn from '../cash-in/shared';
import * as cashOut from '../cash-out/shared';
import {
  ArchiveResult,
  Client,
  ClientCreated,
  CryptoTokenIssued,
  PartnerFault,
  WebhookDelivery,
  WebhookDeliveryPage,
} from './openapi-responses';
import { ArchiveSchema, CreateClientSchema, PartnerFaultSchema, PatchClientSchema } from './schemas';

const ex = { ...cashIn, ...cashOut };

const TAG = 'Operator';

const operator = (spec: Omit<OperationSpec, 'tag' | 'auth'>): OperationSpec => ({
  ...spec,
  tag: TAG,
  auth: 'operator',
});

const ACCOUNTS = [
  {
    number: '10000001-5',
    branch: '0001',
    type: 'TRANSACTIONAL',
    bank: { ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' },
  },
  {
    number: '10000002-3',
    branch: '0001',
    type: 'PROPRIETARY',
    bank: { ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' },
  },
];

const CLIENT = {
  clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
  name: 'Loja Exemplo Ltda',
  merchantName: 'Loja Exemplo',
  merchantCity: 'Ribeirão Preto',
  statementStartDate: '2026-11-01',
  partners: [{ ispb: '31880826', name: 'Banco Alfa Liquidações S.A.' }],
  accounts: ACCOUNTS,
  limits: { daily: 50000 },
  approvalThreshold: 10000,
  blockedPayerDocuments: [],
  applicationTokenActive: true,
  cryptoTokenActive: true,
  createdAt: '2026-11-01T12:00:00.000Z',
  updatedAt: '2026-11-21T12:00:00.000Z',
};

const noContent = { '204': { description: 'Done.' } };

export const adminOperations: OperationSpec[] = [
  operator({
    method: 'post',
    path: '/admin/clients',
    operationId: 'createClient',
    summary: 'Onboard a client',
    description:
      'Creates the client, its credentials and one TRANSACTIONAL and one PROPRIETARY account per partner. Secrets appear only in this answer.',
    body: {
      schema: CreateClientSchema,
      examples: { minimal: example('Name only', { name: 'Loja Exemplo Ltda' }) },
    },
    success: {
      '201': {
        description: 'Onboarded.',
        schema: ClientCreated,
        examples: {
          created: example('Credentials', {
            clientId: CLIENT.clientId,
            clientSecret: '0d1c2b3a-4f5e-4a6b-8c7d-9e0f1a2b3c4d',
            applicationToken: '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928',
            cryptoToken: 'ct_5b8c1f0e9d2a4c7b8e3f6a1d0c9b2e7f',
            webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
            statementStartDate: '2026-11-01',
            accounts: ACCOUNTS,
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR'],
  }),
  operator({
    method: 'get',
    path: '/admin/clients/{clientId}',
    operationId: 'getClient',
    summary: 'Read a client (no secrets)',
    parameters: [clientIdParameter],
    success: {
      '200': {
        description: 'The client.',
        schema: Client,
        examples: { client: example('Client', CLIENT) },
      },
    },
    errors: ['CLIENT_NOT_FOUND'],
  }),
  operator({
    method: 'patch',
    path: '/admin/clients/{clientId}',
    operationId: 'patchClient',
    summary: 'Change limits, approval threshold, blocked payers or the health webhook',
    description: '`null` removes a limit, the threshold or the health webhook.',
    parameters: [clientIdParameter],
    body: {
      schema: PatchClientSchema,
      examples: {
        limits: example('Daily limit and approval', { limits: { daily: 50000 }, approvalThreshold: 10000 }),
      },
    },
    success: {
      '200': {
        description: 'The client after the change.',
        schema: Client,
        examples: { client: example('Client', CLIENT) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CLIENT_NOT_FOUND'],
  }),
  operator({
    method: 'post',
    path: '/admin/clients/{clientId}/crypto-token',
    operationId: 'rotateCryptoToken',
    summary: 'Issue a new CryptoToken',
    description: 'The previous CryptoToken stops working at once.',
    parameters: [clientIdParameter],
    success: {
      '201': {
        description: 'The new CryptoToken.',
        schema: CryptoTokenIssued,
        examples: { token: example('New token', { cryptoToken: 'ct_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d' }) },
      },
    },
    errors: ['CLIENT_NOT_FOUND'],
  }),
  operator({
    method: 'delete',
    path: '/admin/clients/{clientId}/crypto-token',
    operationId: 'deactivateCryptoToken',
    summary: 'Deactivate the CryptoToken',
    description: 'Financial operations then answer 403 CRYPTO_TOKEN_NOT_CONFIGURED.',
    parameters: [clientIdParameter],
    success: noContent,
    errors: ['CLIENT_NOT_FOUND'],
  }),
  operator({
    method: 'delete',
    path: '/admin/clients/{clientId}/application-token',
    operationId: 'deactivateApplicationToken',
    summary: 'Deactivate the ApplicationToken',
    description: 'Every call with that ApplicationToken then answers 401 (inactive).',
    parameters: [clientIdParameter],
    success: noContent,
    errors: ['CLIENT_NOT_FOUND'],
  }),
  ...(['approve', 'reject'] as const).map((action) =>
    operator({
      method: 'post',
      path: `/admin/clients/{clientId}/cash-out/{id}/${action}`,
      operationId: `${action}CashOut`,
      summary: action === 'approve' ? 'Approve a PENDING Cash-Out' : 'Reject a PENDING Cash-Out',
      description:
        action === 'approve'
          ? 'The Cash-Out goes back to PROCESSING and is executed.'
          : 'The Cash-Out ends CANCELLED with `failure.code` APPROVAL_REJECTED.',
      parameters: [clientIdParameter, cashOutIdParameter],
      success: {
        '200': {
          description: 'The Cash-Out as GET returns it.',
          schema: cashOut.CashOut,
          examples: {
            result: example(
              action === 'approve' ? 'Approved' : 'Rejected',
              action === 'approve'
                ? { ...ex.cashOutAccepted, amount: 12000, payee: ex.cashOutCompleted.payee }
                : {
                    ...ex.cashOutCancelled,
                    failure: {
                      code: 'APPROVAL_REJECTED',
                      message: 'The transfer was rejected during approval.',
                    },
                  },
            ),
          },
        },
      },
      errors: ['CLIENT_NOT_FOUND', 'CASHOUT_NOT_FOUND', 'RULE_VIOLATION'],
    }),
  ),
  operator({
    method: 'get',
    path: '/admin/clients/{clientId}/webhook-deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "List a client's webhook deliveries",
    description:
      "Newest first: what was sent where, how it went, what is waiting. A delivery that ended (DELIVERED, GIVEN_UP, UNDELIVERABLE) is listed for 7 days after it ended, then removed; PENDING, IN_FLIGHT and FAILED ones are listed until they end. DELIVERED and UNDELIVERABLE deliveries of an archived transaction move to the archive with it: a list by aggregateId still shows them (same items, order and fields, same 7 days); a list without aggregateId shows the deliveries still in the client's object (every open or GIVEN_UP one).",
    parameters: [clientIdParameter, ...deliveryQueryParameters],
    success: {
      '200': {
        description: 'One page of deliveries.',
        schema: WebhookDeliveryPage,
        examples: {
          page: example('One failed delivery', {
            items: [
              {
                eventId: 'evt_1042_4TqIGMZRqdmjOU',
                eventType: 'CASHIN_PAID',
                aggregateId: ex.cashInPaid.transactionId,
                url: 'https://loja.example.com.br/webhooks/pix',
                status: 'FAILED',
                attempts: 2,
                lastResponseStatus: 500,
                nextAttemptAt: '2026-11-21T13:50:00.000Z',
                lastAttemptAt: '2026-11-21T13:20:00.000Z',
                createdAt: '2026-11-21T13:18:02.481Z',
              },
            ],
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'CLIENT_NOT_FOUND'],
  }),
  operator({
    method: 'post',
    path: '/admin/clients/{clientId}/webhook-deliveries/{eventId}/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'Retry a FAILED or GIVEN_UP delivery now',
    description:
      'Any other state answers 422 RULE_VIOLATION; an unknown eventId 404 NOT_FOUND, as does a GIVEN_UP delivery whose 7 days after it ended have passed (it is no longer kept).',
    parameters: [clientIdParameter, eventIdParameter],
    success: { '200': { description: 'The delivery, PENDING again.', schema: WebhookDelivery } },
    errors: ['CLIENT_NOT_FOUND', 'NOT_FOUND', 'RULE_VIOLATION'],
  }),
  operator({
    method: 'post',
    path: '/admin/clients/{clientId}/archive',
    operationId: 'archiveClient',
    summary: "Move a client's closed history to the archive now",
    description:
      "Archives every closed Cash-In (PAID and settled, REFUNDED, EXPIRED, CANCELLED) and closed Cash-Out (COMPLETED, CANCELLED, REFUNDED) settled before `before`, and every ledger entry posted before it, ignoring the retention window, into the client's R2 segments, and answers once done with the number of transactions moved. Every read answers exactly as before: GET by any id, the lists, the summaries, statements and balances `at`; a later refund or bank return brings the transaction back. Idempotent: a second call with the same `before` archives 0.",
    parameters: [clientIdParameter],
    body: {
      schema: ArchiveSchema,
      examples: {
        now: example('Everything closed before this instant', { before: '2026-11-25T00:00:00.000Z' }),
      },
    },
    success: {
      '200': {
        description: 'Archiving is done.',
        schema: ArchiveResult,
        examples: { done: example('1,500 transactions archived', { archivedTransactions: 1500 }) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CLIENT_NOT_FOUND'],
  }),
  operator({
    method: 'post',
    path: '/admin/partners/{ispb}/faults',
    operationId: 'injectPartnerFault',
    summary: 'Make a sandbox partner misbehave',
    description:
      'For that many minutes the sandbox partner fails or slows down the given operation (it feeds the PIX health engine). An unknown ISPB answers 404 NOT_FOUND.',
    stagingOnly: true,
    parameters: [ispbParameter],
    body: {
      schema: PartnerFaultSchema,
      examples: {
        outage: example('Half of the Cash-Outs fail for 15 minutes', {
          operation: 'CASH_OUT',
          failureRate: 0.5,
          failureCode: 'PAYEE_BANK_UNAVAILABLE',
          minutes: 15,
        }),
      },
    },
    success: {
      '201': {
        description: 'The fault is active.',
        schema: PartnerFault,
        examples: {
          fault: example('Active fault', {
            ispb: '31880826',
            operation: 'CASH_OUT',
            failureRate: 0.5,
            failureCode: 'PAYEE_BANK_UNAVAILABLE',
            latencyMs: 0,
            startsAt: '2026-11-21T13:00:00.000Z',
            endsAt: '2026-11-21T13:15:00.000Z',
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'NOT_FOUND'],
  }),
  operator({
    method: 'delete',
    path: '/admin/partners/{ispb}/faults',
    operationId: 'clearPartnerFaults',
    summary: 'Stop every fault of a sandbox partner',
    stagingOnly: true,
    parameters: [ispbParameter],
    success: noContent,
    errors: ['NOT_FOUND'],
  }),
];
