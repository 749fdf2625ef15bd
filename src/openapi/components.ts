/**
 * Every named schema of the document: the request schemas that validate bodies (src/schemas) and
 * the response shapes (src/openapi/responses*.ts). A schema used inside another one is written as
 * a `$ref` to its entry here.
 */

import type * as v from 'valibot';
import { RebalanceSchema } from '../schemas/account';
import { ArchiveSchema, CreateClientSchema, PartnerFaultSchema, PatchClientSchema } from '../schemas/admin';
import { AdvanceAnalyzerSchema, ImportObservationsSchema } from '../schemas/admin-health';
import { TokenRequestSchema } from '../schemas/auth';
import { CreateCashInSchema } from '../schemas/cash-in';
import { CreateCashOutSchema } from '../schemas/cash-out';
import {
  AmountSchema,
  DocumentSchema,
  ExternalReferenceSchema,
  HttpUrlSchema,
  NameSchema,
} from '../schemas/common';
import { PixCallbackSchema } from '../schemas/partner-callback';
import { RefundSchema } from '../schemas/refund';
import {
  SandboxCashInReturnSchema,
  SandboxCashOutReturnSchema,
  SandboxDepositSchema,
  SandboxPaySchema,
} from '../schemas/sandbox';
import { BankData } from './fields';
import { ApplicationTokenProblem, Problem } from './problems';
import * as cash from './responses';
import * as account from './responses-account';
import * as admin from './responses-admin';
import * as health from './responses-health';

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
  Rebalance: RebalanceSchema,
  SandboxPay: SandboxPaySchema,
  SandboxCashInReturn: SandboxCashInReturnSchema,
  SandboxCashOutReturn: SandboxCashOutReturnSchema,
  SandboxDeposit: SandboxDepositSchema,
  CreateClient: CreateClientSchema,
  PatchClient: PatchClientSchema,
  PartnerFaultRequest: PartnerFaultSchema,
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
  ArchiveResult: admin.ArchiveResult,
  WebhookDelivery: admin.WebhookDelivery,
  WebhookDeliveryPage: admin.WebhookDeliveryPage,
  Jwks: admin.Jwks,
  ObservationsQueued: admin.ObservationsQueued,
  AnalyzerState: admin.AnalyzerState,
  AnalyzerAdvanced: admin.AnalyzerAdvanced,
};
