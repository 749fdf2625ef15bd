/**
 * Every named schema of the document: the request schemas that validate bodies (src/schemas) and
 * the response shapes (each resource's src/api/<resource>/openapi-responses.ts). A schema used inside another one is written as
 * a `$ref` to its entry here.
 */

import type * as v from 'valibot';
import * as account from '../api/account/openapi-responses';
import { RebalanceSchema } from '../api/account/schemas';
import * as admin from '../api/admin/openapi-responses';
import {
  ArchiveSchema,
  CreateClientSchema,
  PartnerFaultSchema,
  PartnerWebhookSchema,
  PatchClientSchema,
} from '../api/admin/schemas';
import { AdvanceAnalyzerSchema, ImportObservationsSchema } from '../api/admin-health/schemas';
import { TokenRequestSchema } from '../api/auth/schemas';
import * as cashIn from '../api/cash-in/openapi-responses';
import { CreateCashInSchema } from '../api/cash-in/schemas';
import { RefundSchema } from '../api/cash-in/schemas-refund';
import * as cashOut from '../api/cash-out/openapi-responses';
import { CreateCashOutSchema } from '../api/cash-out/schemas';
import * as cashOutBatch from '../api/cash-out-batch/openapi-responses';
import { CreateCashOutBatchSchema } from '../api/cash-out-batch/schemas';
import * as health from '../api/health/openapi-responses';
import { PixCallbackSchema } from '../api/partners/schemas';
import {
  SandboxCashInReturnSchema,
  SandboxCashOutReturnSchema,
  SandboxDepositSchema,
  SandboxPaySchema,
} from '../api/sandbox/schemas';
import {
  AmountSchema,
  DocumentSchema,
  ExternalReferenceSchema,
  HttpUrlSchema,
  NameSchema,
} from '../schemas/common';
import { BankData } from './fields';
import { ApplicationTokenProblem, Problem } from './problems';
import { SummaryBucket } from './responses';

const cash = { ...cashIn, ...cashOut, SummaryBucket };

const destination = CreateCashOutSchema.entries.payee.entries.destination;
const [pixDestination, bankAccountDestination] = destination.options;

export const NAMED_SCHEMAS: Record<string, v.GenericSchema> = {
  // Request fields shared by several bodies.
  Amount: AmountSchema,
  Document: DocumentSchema,
  ExternalReference: ExternalReferenceSchema,
  Name: NameSchema,
  HttpUrl: HttpUrlSchema,
  Destination: destination,
  PixDestination: pixDestination,
  BankAccountDestination: bankAccountDestination,
  // Request bodies.
  TokenRequest: TokenRequestSchema,
  CreateCashIn: CreateCashInSchema,
  Refund: RefundSchema,
  CreateCashOut: CreateCashOutSchema,
  CreateCashOutBatch: CreateCashOutBatchSchema,
  Rebalance: RebalanceSchema,
  SandboxPay: SandboxPaySchema,
  SandboxCashInReturn: SandboxCashInReturnSchema,
  SandboxCashOutReturn: SandboxCashOutReturnSchema,
  SandboxDeposit: SandboxDepositSchema,
  CreateClient: CreateClientSchema,
  PatchClient: PatchClientSchema,
  PartnerFaultRequest: PartnerFaultSchema,
  PartnerWebhookRequest: PartnerWebhookSchema,
  ArchiveRequest: ArchiveSchema,
  ImportObservationsRequest: ImportObservationsSchema,
  AdvanceAnalyzerRequest: AdvanceAnalyzerSchema,
  PartnerPixCallback: PixCallbackSchema,
  // Responses.
  Problem,
  ApplicationTokenProblem,
  LoginFailure: admin.LoginFailure,
  TokenIssued: admin.TokenIssued,
  BankData,
  SummaryBucket: cash.SummaryBucket,
  CashIn: cash.CashIn,
  CashInCreated: cash.CashInCreated,
  RefundAccepted: cash.RefundAccepted,
  CashInPage: cash.CashInPage,
  CashInSummary: cash.CashInSummary,
  CashOut: cash.CashOut,
  CashOutFailure: cash.CashOutFailure,
  CashOutAccepted: cash.CashOutAccepted,
  CashOutPage: cash.CashOutPage,
  CashOutSummary: cash.CashOutSummary,
  CashOutBatchAccepted: cashOutBatch.CashOutBatchAccepted,
  CashOutBatch: cashOutBatch.CashOutBatch,
  HealthPicture: health.HealthPicture,
  IncidentPage: health.IncidentPage,
  IncidentDetail: health.IncidentDetail,
  StatementItem: account.StatementItem,
  Statement: account.Statement,
  Balance: account.Balance,
  RebalanceResult: account.Rebalance,
  Deposit: account.Deposit,
  ClientCreated: admin.ClientCreated,
  Client: admin.Client,
  CryptoTokenIssued: admin.CryptoTokenIssued,
  PartnerFault: admin.PartnerFault,
  PartnerWebhook: admin.PartnerWebhook,
  ArchiveResult: admin.ArchiveResult,
  WebhookDelivery: admin.WebhookDelivery,
  WebhookDeliveryPage: admin.WebhookDeliveryPage,
  Jwks: admin.Jwks,
  ObservationsQueued: admin.ObservationsQueued,
  AnalyzerState: admin.AnalyzerState,
  AnalyzerAdvanced: admin.AnalyzerAdvanced,
};
