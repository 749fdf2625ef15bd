/**
 * ClientLedger: one Durable Object per client. It serializes everything that must be exact for
 * that client — idempotency keys, externalReference uniqueness, transaction state machines, the
 * ledger and the outbox — so none of it needs locks. Business rules live in src/domain and the
 * operation modules beside this file; this class is storage, RPC and the alarm.
 */

import { DurableObject } from 'cloudflare:workers';
import { drizzle } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import type { AuditRow } from '../src/db/audit';
import { payerRulesOf } from '../src/db/clients';
import type { PayerRules } from '../src/domain/payer-rules';
import { failure, type OperationResult } from '../src/domain/result';
import type { TokenGrant } from '../src/domain/token-bucket';
import { errorFields, log } from '../src/infra/log';
import type { AttemptOutcome, ClaimedWebhook } from '../src/webhooks/types';
import { listDeliveriesAnywhere } from './ledger/archive/archive-deliveries';
import { fixedFieldsByCode, rehydrateCashIn, rehydrateCashOut } from './ledger/archive/archive-reads';
import { forwardAudit } from './ledger/audit-ops';
import type { CreateCashInInput } from './ledger/cash-in/cash-in-ops';
import type { SettleInput } from './ledger/cash-in/cash-in-settle-ops';
import type { DisputeFilter } from './ledger/cash-in/cash-in-store';
import { chargeLocation } from './ledger/cash-in/charge-location';
import type { DisputeCommand } from './ledger/cash-in/dispute-commands';
import type { ReceivedPix } from './ledger/cash-in/partner-pix-ops';
import { cashOutBatchViews } from './ledger/cash-out/cash-out-batch-ops';
import type { CreateCashOutInput } from './ledger/cash-out/cash-out-ops';
import { type CrashHook, NO_CRASHES } from './ledger/crash-points';
import type { LedgerDb } from './ledger/db';
import { DegradedPartners } from './ledger/degraded-partners';
import { IdempotencyKeys, type Idempotent, type Remember } from './ledger/ledger/idempotency';
import { openAccount } from './ledger/ledger/ledger';
import type { RebalanceInput } from './ledger/ledger/transfer-ops';
import type { LedgerContext, Profile } from './ledger/ledger-context';
import migrations from './ledger/migrations/migrations';
import type { Operation, Step } from './ledger/operation';
import * as ops from './ledger/operations';
import { armPrune, pruneOnce } from './ledger/prune';
import { listDisputePage } from './ledger/reads/dispute-queries';
import { cashInJson, cashOutJson } from './ledger/reads/read-json';
import { type BooksOfDay, bookedPix, booksOfDay, heldAtPartner } from './ledger/reads/reconciliation-queries';
import type { Balances, StatementInput } from './ledger/reads/statement-queries';
import { readBalances, readStatement } from './ledger/reads/statement-queries';
import type { ListInput, TransactionKind } from './ledger/reads/transaction-queries';
import { listTransactions, summarizeTransactions } from './ledger/reads/transaction-queries';
import { recurrenceLocation } from './ledger/recurrence/recurrence-ops';
import type { RecurrenceCommand } from './ledger/recurrence/recurrence-rpc';
import { RequestBudget } from './ledger/request-budget';
import { sandboxRefusal } from './ledger/sandbox-scope';
import { Scheduler } from './ledger/scheduler';
import * as schema from './ledger/schema';
import { readProfile, storeProfile, updateProfile } from './ledger/settings-store';
import { TaskRunner } from './ledger/tasks';
import type { DeliveryListInput } from './ledger/webhooks/delivery-view';
import { claimWebhook } from './ledger/webhooks/webhook-deliveries';

export interface OnboardCommand extends Profile {
  accounts: { number: string; ispb: string; branch: string; type: 'TRANSACTIONAL' | 'PROPRIETARY' }[];
}

/**
 * A client's command that threw (a storage failure, a write the books guard refused): the storage
 * transaction it threw in rolled back with its idempotency key, and what an earlier step committed
 * (a refund's hold and its poll) is followed up as after a crash. Logged here with the client and
 * answered INTERNAL_ERROR, which the route turns into its 500 with a traceId (src/http/respond.ts):
 * thrown across the RPC boundary, the runtime reported it as an uncaught exception with no context.
 */
function failedCommand(clientId: string, error: unknown): OperationResult<never> {
  log('error', 'ledger command failed; its transaction rolled back', { clientId, ...errorFields(error) });
  return failure({ code: 'INTERNAL_ERROR', detail: 'The command failed; retry it' });
}

export class ClientLedger extends DurableObject<Env> {
  protected readonly db: LedgerDb;
  private readonly idempotency: IdempotencyKeys;
  private readonly scheduler: Scheduler;
  /** Every crash point passes here; the staging entry's subclass arms them (test/crash/). */
  protected crashes: CrashHook = NO_CRASHES;
  private readonly tasks: TaskRunner;
  private readonly degraded = new DegradedPartners(this.env);
  /** externalReferences of Cash-Ins being created right now (OpenAPI createCashIn: 409 also for those). */
  private readonly creatingCashIns = new Set<string>();
  /** Recurrence cycles being charged right now (ledger/recurrence/recurrence-charge-ops.ts). */
  private readonly chargingCycles = new Set<string>();
  /** Recurrences being created at a real partner right now (ledger/recurrence/recurrence-ops.ts). */
  private readonly creatingRecurrences = new Set<string>();
  private profile: Profile | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    this.idempotency = new IdempotencyKeys(this.db, (kind, code) =>
      fixedFieldsByCode(this.ledgerContext(), kind, code),
    );
    this.scheduler = new Scheduler(this.db, ctx.storage);
    this.tasks = new TaskRunner(
      () => this.ledgerContext(),
      (now, due) => this.prune(now, due),
      () => this.degraded.cashOut(),
    );
    ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, migrations);
      this.profile = readProfile(this.db);
    });
  }

  /** The ledger's view of this object (named `ledger` where used: `this.ctx` is the object's state). */
  private ledgerContext(): LedgerContext {
    if (!this.profile) throw new Error('ClientLedger used before onboarding');
    return {
      db: this.db,
      storage: this.ctx.storage,
      env: this.env,
      scheduler: this.scheduler,
      profile: this.profile,
      crashes: this.crashes,
    };
  }

  /** When the last pruning step found the next row to age out (null: none); until then a step does nothing. */
  private pruneAt: number | null | undefined;

  /** One bounded pruning step (ledger/prune.ts) after the due tasks; the alarm brings the next. */
  private prune(now: number, due: boolean): void {
    if (!due && typeof this.pruneAt === 'number' && now < this.pruneAt) return;
    this.pruneAt = this.ctx.storage.transactionSync(() =>
      armPrune(this.db, this.scheduler, now, pruneOnce(this.db, now)),
    );
  }

  /** Runs a write, then arms the alarm for its work, unless a task run will (ledger/tasks.ts). */
  private async withAlarm<T>(work: () => Promise<T> | T): Promise<T> {
    try {
      return await work();
    } finally {
      if (!this.tasks.busy) await this.scheduler.arm();
    }
  }

  /** Idempotent: the admin API calls it at onboarding and may call it again after a failure. */
  async onboard(command: OnboardCommand): Promise<void> {
    const profile: Profile = {
      clientId: command.clientId,
      name: command.name,
      statementStartDate: command.statementStartDate,
      ...(command.merchantName !== undefined && { merchantName: command.merchantName }),
      ...(command.merchantCity !== undefined && { merchantCity: command.merchantCity }),
    };
    this.ctx.storage.transactionSync(() => {
      storeProfile(this.db, profile);
      for (const account of command.accounts) openAccount(this.db, account);
    });
    this.profile = profile;
  }

  /** PATCH merchantName / merchantCity: the BR Codes of new Cash-Ins carry the new text. */
  async setMerchantText(text: { merchantName?: string; merchantCity?: string }): Promise<void> {
    const { merchantName: _n, merchantCity: _c, ...rest } = this.ledgerContext().profile;
    const profile: Profile = { ...rest, ...text };
    updateProfile(this.db, profile);
    this.profile = profile;
  }

  private payerRules(): Promise<PayerRules> {
    return payerRulesOf(this.env, this.ledgerContext().profile.clientId);
  }

  /**
   * Applies an operation's declaration (./ledger/operation.ts): blocked payers, rehydration, the
   * sandbox guard and idempotency, in that order, then arms the alarm for what it scheduled.
   */
  private async run<I, R>(op: Operation<I, R>, input: I): Promise<R> {
    const ledger = this.ledgerContext();
    const payerRules = op.payerRules ? await this.payerRules() : undefined;
    const archived = op.rehydrates?.id(input);
    if (archived !== undefined)
      await (op.rehydrates?.kind === 'cash-out' ? rehydrateCashOut : rehydrateCashIn)(ledger, archived);
    if (op.sandbox && (op.sandbox.when?.(input) ?? true)) {
      const refused = sandboxRefusal(ledger, op.sandbox.target, op.sandbox.id(input));
      if (refused) return refused as R; // a sandbox operation answers OperationResult (operation.ts)
    }
    const step = (remember: Remember): Step => ({
      remember,
      payerRules,
      creatingCashIns: this.creatingCashIns,
      chargingCycles: this.chargingCycles,
      creatingRecurrences: this.creatingRecurrences,
      idempotencyKeys: this.idempotency,
    });
    return this.withAlarm(() => {
      if (!op.idempotent)
        return op.apply(
          ledger,
          input,
          step(() => {}),
        );
      const { idempotencyKey, requestHash } = input as Idempotent;
      return this.idempotency
        .run(
          idempotencyKey,
          requestHash,
          Date.now(),
          async (remember) => (await op.apply(ledger, input, step(remember))) as OperationResult<unknown>,
        )
        .catch((error: unknown) => failedCommand(ledger.profile.clientId, error)) as Promise<R>;
    });
  }

  // -- Cash-In ----------------------------------------------------------------

  createCashIn(command: CreateCashInInput & Idempotent) {
    return this.run(ops.createCashInOp, command);
  }

  /** GET /cash-in/{id}: the view as JSON text (ledger/reads/read-json.ts), or null. */
  async getCashIn(id: string): Promise<string | null> {
    return cashInJson(this.ledgerContext(), id);
  }

  /** What the BR Code location serves for a charge, looked up by its internalCode only. */
  async chargeLocation(internalCode: string) {
    return this.profile ? chargeLocation(this.ledgerContext(), internalCode) : null; // no client, no charge
  }

  /** What a recurrence's QR location serves, looked up by its location code only. */
  async recurrenceLocation(code: string) {
    return this.profile ? recurrenceLocation(this.ledgerContext(), code) : null; // no client, no recurrence
  }

  /** A list page with its items' JSON joined (one string crosses the RPC, not an object per item). */
  async listTransactions(kind: TransactionKind, input: ListInput) {
    const { items, ...neighbours } = await listTransactions(this.ledgerContext(), kind, input);
    return { items: items.map((item) => item.row).join(','), ...neighbours };
  }

  async summarizeTransactions(kind: TransactionKind, from: number, to: number) {
    return summarizeTransactions(this.ledgerContext(), kind, from, to);
  }

  refundCashIn(command: Idempotent & { id: string; reason: string; description: string | null }) {
    return this.run(ops.refundCashInOp, command);
  }

  cancelCashIn(id: string) {
    return this.run(ops.cancelCashInOp, { id });
  }

  settleCashIn(input: Omit<SettleInput, 'rules'>) {
    return this.run(ops.settleCashInOp, input);
  }

  returnCashIn(id: string, reason: string) {
    return this.run(ops.returnCashInOp, { id, reason });
  }

  /** MED disputes (ledger/cash-in/dispute-commands.ts): the sandbox's, a real partner's, the defense. */
  dispute(command: DisputeCommand) {
    return this.run(ops.disputeOp, command);
  }

  /** GET /disputes: a page of disputed Cash-Ins, hot and archived (ledger/reads/dispute-queries.ts). */
  async listDisputes(input: ListInput, filter: DisputeFilter) {
    return listDisputePage(this.ledgerContext(), input, filter);
  }

  partnerPix(ispb: string, pix: ReceivedPix) {
    return this.run(ops.partnerPixOp, { ispb, pix });
  }

  /** This client's side of a partner's day (ledger/reads/reconciliation-queries.ts). */
  async booksOfDay(ispb: string, from: number, to: number): Promise<BooksOfDay> {
    return booksOfDay(this.ledgerContext(), ispb, from, to);
  }

  /** What this client's books hold at a partner now, and what of it is already asked of it. */
  async heldAtPartner(ispb: string) {
    return heldAtPartner(this.ledgerContext(), ispb);
  }

  /** A payment of this client's by its end-to-end id, whenever it was booked, or null. */
  async bookedPix(ispb: string, endToEndId: string) {
    return bookedPix(this.ledgerContext(), ispb, endToEndId) ?? null;
  }

  expireCashInNow(id: string) {
    return this.run(ops.expireCashInNowOp, { id });
  }

  // -- Cash-Out ---------------------------------------------------------------

  createCashOut(command: CreateCashOutInput & Idempotent) {
    return this.run(ops.createCashOutOp, command);
  }

  createCashOutBatch(command: Idempotent & { items: CreateCashOutInput[] }) {
    return this.run(ops.createCashOutBatchOp, command);
  }

  async cashOutBatches(query: { batchId: string } | { recent: true }) {
    return cashOutBatchViews(this.ledgerContext(), query);
  }

  /** GET /cash-out/{id}: the view as JSON text, or null. */
  async getCashOut(id: string): Promise<string | null> {
    return cashOutJson(this.ledgerContext(), id);
  }

  /** The operator's decision on a PENDING Cash-Out, with its audit record in the same transaction. */
  decideCashOut(id: string, approve: boolean, audit?: AuditRow) {
    return this.run(ops.decideCashOutOp, { id, approve, ...(audit && { audit }) });
  }

  returnCashOut(id: string, reason: string) {
    return this.run(ops.returnCashOutOp, { id, reason });
  }

  // -- Accounts: statement, balance, rebalance, sandbox deposit ---------------
  async statement(input: StatementInput) {
    return readStatement(this.ledgerContext(), input);
  }

  async balances(at: number | undefined): Promise<OperationResult<Balances>> {
    return readBalances(this.ledgerContext(), at);
  }

  rebalance(command: RebalanceInput & Idempotent) {
    return this.run(ops.rebalanceOp, command);
  }

  deposit(number: string, amountCents: number) {
    return this.run(ops.depositOp, { number, amountCents });
  }

  // -- Webhook delivery (ledger/webhooks/webhook-deliveries.ts; the POST is the queue consumer's) -
  async claimWebhook(eventId: string, dispatch: number): Promise<ClaimedWebhook | null> {
    return claimWebhook(this.ledgerContext(), eventId, dispatch, Date.now());
  }

  recordWebhookAttempt(eventId: string, dispatch: number, outcome: AttemptOutcome) {
    return this.run(ops.recordWebhookAttemptOp, { eventId, dispatch, outcome });
  }

  async listWebhookDeliveries(input: DeliveryListInput) {
    return listDeliveriesAnywhere(this.ledgerContext(), input, Date.now());
  }

  retryWebhookDelivery(eventId: string, audit?: AuditRow) {
    return this.run(ops.retryWebhookDeliveryOp, { eventId, ...(audit && { audit }) });
  }

  // -- Request budget (src/http/rate-limit.ts; ledger/request-budget.ts) ------

  private readonly requestBudget = new RequestBudget();

  leaseRequestTokens(ratePerSecond: number, want: number): TokenGrant {
    return this.requestBudget.lease(ratePerSecond, want);
  }

  // -- Pix Automático ---------------------------------------------------------

  /** Create, read, list and move recurrences (ledger/recurrence/recurrence-rpc.ts). */
  recurrence(command: RecurrenceCommand) {
    return this.run(ops.recurrenceOp, command);
  }

  // -- PIX health events ------------------------------------------------------

  emitHealthEvent(event: { eventType: string; incidentId: string; data: unknown; webhookUrl: string }) {
    return this.run(ops.emitHealthEventOp, event);
  }

  /** POST /admin/clients/{id}/archive: closed history before `before` to R2; its record concludes the run. */
  archive(before: number, audit?: AuditRow) {
    return this.run(ops.archiveOp, { before, ...(audit && { audit }) });
  }

  // -- Time-driven work -------------------------------------------------------
  override async alarm(): Promise<void> {
    this.scheduler.alarmFired();
    if (!this.profile) return;
    await this.tasks.runDue();
    // A run already going on when the alarm fired may have armed before it: arm again, if need be.
    await this.scheduler.arm();
  }

  /** Cron backstop: runs anything overdue, the housekeeping, and re-arms the alarm. */
  async sweep(): Promise<void> {
    if (!this.profile) return;
    await forwardAudit(this.ledgerContext(), this.env);
    await this.tasks.runDue(true);
  }
}
