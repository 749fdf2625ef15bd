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
import type { CashInCreated, CashInView } from '../src/domain/cash-in';
import type { CashOutView } from '../src/domain/cash-out';
import type { PayerRules } from '../src/domain/payer-rules';
import { failure, type OperationResult } from '../src/domain/result';
import { fullBucket, type TokenBucket, type TokenGrant, takeTokens } from '../src/domain/token-bucket';
import type { AttemptOutcome, ClaimedWebhook } from '../src/webhooks/types';
import { archiveAll } from './ledger/archive/archive';
import { listDeliveriesAnywhere } from './ledger/archive/archive-deliveries';
import { rehydrateCashIn, rehydrateCashOut } from './ledger/archive/archive-reads';
import { audited, auditedRun, forwardAudit } from './ledger/audit-ops';
import { bankReturn } from './ledger/cash-in/bank-returns';
import type { CreateCashInInput } from './ledger/cash-in/cash-in-ops';
import { cancelCashIn, createCashIn, expireCashIn } from './ledger/cash-in/cash-in-ops';
import { type SettleInput, settleCashIn } from './ledger/cash-in/cash-in-settle-ops';
import { disputePage, findCashIn } from './ledger/cash-in/cash-in-store';
import { chargeLocation } from './ledger/cash-in/charge-location';
import { type DisputeCommand, runDisputeCommand } from './ledger/cash-in/dispute-commands';
import { applyPartnerPix, type PixOutcome, type ReceivedPix } from './ledger/cash-in/partner-pix-ops';
import { type RefundBody, startRefund } from './ledger/cash-in/refund-ops';
import { acceptCashOutBatch, cashOutBatchViews } from './ledger/cash-out/cash-out-batch-ops';
import type { CashOutAccepted, CreateCashOutInput } from './ledger/cash-out/cash-out-ops';
import { acceptCashOut, approveCashOut, rejectCashOut, returnCashOut } from './ledger/cash-out/cash-out-ops';
import type { LedgerContext, Profile } from './ledger/context';
import { type CrashHook, NO_CRASHES } from './ledger/crash-points';
import type { LedgerDb } from './ledger/db';
import { DegradedPartners } from './ledger/degraded-partners';
import { IdempotencyKeys, type Idempotent } from './ledger/ledger/idempotency';
import { openAccount } from './ledger/ledger/ledger';
import { type Deposit, deposit, type RebalanceInput, rebalance } from './ledger/ledger/transfer-ops';
import migrations from './ledger/migrations/migrations';
import { armPrune, pruneOnce } from './ledger/prune';
import { cashInJson, cashOutJson } from './ledger/reads/read-json';
import { type BooksOfDay, bookedPix, booksOfDay } from './ledger/reads/reconciliation-queries';
import type { Balances, StatementInput } from './ledger/reads/statement-queries';
import { readBalances, readStatement } from './ledger/reads/statement-queries';
import type { ListInput, TransactionKind } from './ledger/reads/transaction-queries';
import { listTransactions, summarizeTransactions } from './ledger/reads/transaction-queries';
import { type RecurrenceCommand, recurrenceCommand } from './ledger/recurrence/recurrence-rpc';
import * as sandbox from './ledger/sandbox-scope';
import { Scheduler } from './ledger/scheduler';
import * as schema from './ledger/schema';
import { readProfile, storeProfile, updateProfile } from './ledger/settings-store';
import { TaskRunner } from './ledger/tasks';
import type { DeliveryListInput, DeliveryView } from './ledger/webhooks/delivery-view';
import { emitWebhook } from './ledger/webhooks/events';
import { claimWebhook, recordAttempt, retryDelivery } from './ledger/webhooks/webhook-deliveries';

export interface OnboardCommand extends Profile {
  accounts: { number: string; ispb: string; branch: string; type: 'TRANSACTIONAL' | 'PROPRIETARY' }[];
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
  private profile: Profile | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    this.idempotency = new IdempotencyKeys(this.db);
    this.scheduler = new Scheduler(this.db, ctx.storage);
    this.tasks = new TaskRunner(
      () => this.context(),
      (now, due) => this.prune(now, due),
      () => this.degraded.cashOut(),
    );
    ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, migrations);
      this.profile = readProfile(this.db);
    });
  }

  private context(): LedgerContext {
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

  /** Runs an operation, then arms the alarm for its work, unless a task run will (ledger/tasks.ts). */
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
    const { merchantName: _n, merchantCity: _c, ...rest } = this.context().profile;
    const profile: Profile = { ...rest, ...text };
    updateProfile(this.db, profile);
    this.profile = profile;
  }

  private payerRules(): Promise<PayerRules> {
    return payerRulesOf(this.env, this.context().profile.clientId);
  }

  // ── Cash-In ────────────────────────────────────────────────────────────────
  async createCashIn(command: CreateCashInInput & Idempotent): Promise<OperationResult<CashInCreated>> {
    const ctx = this.context();
    return this.withAlarm(() =>
      this.idempotency.run(command.idempotencyKey, command.requestHash, Date.now(), (remember) =>
        createCashIn(ctx, command, this.creatingCashIns, remember),
      ),
    );
  }

  /** GET /cash-in/{id}: the view as JSON text (ledger/reads/read-json.ts), or null. */
  async getCashIn(id: string): Promise<string | null> {
    return cashInJson(this.context(), id);
  }

  /** What the BR Code location serves for a charge, looked up by its internalCode only. */
  async chargeLocation(internalCode: string) {
    return this.profile ? chargeLocation(this.context(), internalCode) : null; // no client, no charge
  }

  /** A list page with its items' JSON joined (one string crosses the RPC, not an object per item). */
  async listTransactions(kind: TransactionKind, input: ListInput) {
    const { items, ...neighbours } = await listTransactions(this.context(), kind, input);
    return { items: items.map((item) => item.row).join(','), ...neighbours };
  }

  async summarizeTransactions(kind: TransactionKind, from: number, to: number) {
    return summarizeTransactions(this.context(), kind, from, to);
  }

  async refundCashIn(
    command: Idempotent & { id: string; reason: string; description: string | null },
  ): Promise<OperationResult<RefundBody>> {
    const ctx = this.context();
    await rehydrateCashIn(ctx, command.id);
    return this.withAlarm(() =>
      this.idempotency.run(command.idempotencyKey, command.requestHash, Date.now(), async (remember) => {
        const row = findCashIn(this.db, command.id);
        if (!row) return failure({ code: 'CASHIN_NOT_FOUND', detail: 'No Cash-In matches this id' });
        return startRefund(ctx, row, command.reason, command.description, remember, command.idempotencyKey);
      }),
    );
  }

  async cancelCashIn(id: string): Promise<OperationResult<CashInView>> {
    const ctx = this.context();
    await rehydrateCashIn(ctx, id); // an archived one answers as it did (422), not 404
    return this.withAlarm(() => cancelCashIn(ctx, id));
  }

  async settleCashIn(input: Omit<SettleInput, 'rules'>): Promise<OperationResult<CashInView>> {
    const ctx = this.context();
    const rules = await this.payerRules();
    await rehydrateCashIn(ctx, input.id);
    if (input.source === 'sandbox' && !sandbox.mayTouchCashIn(ctx, input.id)) return sandbox.cashInNotFound();
    return this.withAlarm(() => settleCashIn(ctx, { ...input, rules }));
  }

  /** The sandbox's bank return (MED); a real partner's arrive through partnerPix. */
  async returnCashIn(id: string, reason: string): Promise<OperationResult<CashInView>> {
    await rehydrateCashIn(this.context(), id);
    if (!sandbox.mayTouchCashIn(this.context(), id)) return sandbox.cashInNotFound();
    return this.withAlarm(() => bankReturn(this.context(), id, reason));
  }

  /** MED disputes (ledger/cash-in/dispute-commands.ts): the sandbox's, a real partner's, the defense. */
  async dispute(command: DisputeCommand): Promise<OperationResult<CashInView>> {
    return this.withAlarm(() => runDisputeCommand(this.context(), command));
  }
  /** GET /disputes: a page of disputed Cash-Ins, its items' JSON joined as listTransactions does. */
  async listDisputes(input: ListInput, status: string | undefined) {
    const { items, ...neighbours } = disputePage(this.context(), input, status);
    return { items: items.map((item) => item.row).join(','), ...neighbours };
  }

  /** A received Pix a real partner reported (ledger/cash-in/partner-pix-ops.ts). */
  async partnerPix(ispb: string, pix: ReceivedPix): Promise<PixOutcome[]> {
    const [ctx, rules] = [this.context(), await this.payerRules()];
    if (pix.txid !== undefined) await rehydrateCashIn(ctx, pix.txid); // a bank return of an archived one
    return this.withAlarm(() => applyPartnerPix(ctx, ispb, pix, rules));
  }

  /** This client's side of a partner's day (ledger/reads/reconciliation-queries.ts). */
  async booksOfDay(ispb: string, from: number, to: number): Promise<BooksOfDay> {
    return booksOfDay(this.context(), ispb, from, to);
  }

  /** A payment of this client's by its end-to-end id, whenever it was booked, or null. */
  async bookedPix(ispb: string, endToEndId: string) {
    return bookedPix(this.context(), ispb, endToEndId) ?? null;
  }

  async expireCashInNow(id: string): Promise<OperationResult<CashInView>> {
    if (!sandbox.mayTouchCashIn(this.context(), id)) return sandbox.cashInNotFound();
    return this.withAlarm(() => expireCashIn(this.context(), id, true));
  }

  // ── Cash-Out ───────────────────────────────────────────────────────────────
  async createCashOut(command: CreateCashOutInput & Idempotent): Promise<OperationResult<CashOutAccepted>> {
    const ctx = this.context();
    return this.withAlarm(() =>
      this.idempotency.run(command.idempotencyKey, command.requestHash, Date.now(), async (remember) =>
        acceptCashOut(ctx, command, remember),
      ),
    );
  }

  /** POST /cash-out/batch: every item checked, then all accepted in one transaction (or none). */
  async createCashOutBatch(command: Idempotent & { items: CreateCashOutInput[] }) {
    const [ctx, now] = [this.context(), Date.now()];
    const run = this.idempotency.run.bind(this.idempotency, command.idempotencyKey, command.requestHash, now);
    return this.withAlarm(() => run((remember) => acceptCashOutBatch(ctx, command.items, remember)));
  }

  async cashOutBatches(query: { batchId: string } | { recent: true }) {
    return cashOutBatchViews(this.context(), query);
  }

  /** GET /cash-out/{id}: the view as JSON text, or null. */
  async getCashOut(id: string): Promise<string | null> {
    return cashOutJson(this.context(), id);
  }

  /** The operator's decision on a PENDING Cash-Out, with its audit record in the same transaction. */
  async decideCashOut(id: string, approve: boolean, audit?: AuditRow): Promise<OperationResult<CashOutView>> {
    const ctx = this.context();
    await rehydrateCashOut(ctx, id); // an archived one answers as it did (422), not 404
    const decision = () => (approve ? approveCashOut(ctx, id) : rejectCashOut(ctx, id));
    return this.withAlarm(() => audited(ctx, this.env, audit, decision));
  }

  async returnCashOut(id: string, reason: string): Promise<OperationResult<CashOutView>> {
    const ctx = this.context();
    await rehydrateCashOut(ctx, id); // a bank return of an archived one
    if (!sandbox.mayTouchCashOut(ctx, id)) return sandbox.cashOutNotFound();
    return this.withAlarm(() => returnCashOut(ctx, id, reason));
  }

  // ── Accounts: statement, balance, rebalance, sandbox deposit ───────────────
  async statement(input: StatementInput) {
    return readStatement(this.context(), input);
  }

  async balances(at: number | undefined): Promise<OperationResult<Balances>> {
    return readBalances(this.context(), at);
  }

  async rebalance(command: RebalanceInput & Idempotent) {
    const ctx = this.context();
    return this.idempotency.run(command.idempotencyKey, command.requestHash, Date.now(), async (remember) =>
      rebalance(ctx, command, remember),
    );
  }

  async deposit(number: string, amountCents: number): Promise<OperationResult<Deposit>> {
    if (!sandbox.mayTouchAccount(this.context(), number)) return sandbox.accountNotFound();
    return deposit(this.context(), number, amountCents);
  }

  // ── Webhook delivery (ledger/webhooks/webhook-deliveries.ts; the POST is the queue consumer's) ─
  async claimWebhook(eventId: string, dispatch: number): Promise<ClaimedWebhook | null> {
    return claimWebhook(this.context(), eventId, dispatch, Date.now());
  }

  async recordWebhookAttempt(eventId: string, dispatch: number, outcome: AttemptOutcome): Promise<void> {
    const ctx = this.context();
    return this.withAlarm(() => recordAttempt(ctx, eventId, dispatch, outcome, Date.now()));
  }

  async listWebhookDeliveries(input: DeliveryListInput) {
    return listDeliveriesAnywhere(this.context(), input, Date.now());
  }

  async retryWebhookDelivery(eventId: string, audit?: AuditRow): Promise<OperationResult<DeliveryView>> {
    const ctx = this.context();
    return this.withAlarm(() => audited(ctx, this.env, audit, () => retryDelivery(ctx, eventId, Date.now())));
  }

  // ── Request budget (src/http/rate-limit.ts) ────────────────────────────────
  // The one bucket of this client's rateLimitPerSecond, in memory only: no storage write per
  // request. An evicted object starts again with a full bucket, at most one extra second's budget.
  private requestBudget: TokenBucket | undefined;

  /** Grants an isolate up to `want` requests of the budget at `ratePerSecond` (the caller's view). */
  leaseRequestTokens(ratePerSecond: number, want: number): TokenGrant {
    const now = Date.now();
    this.requestBudget ??= fullBucket(ratePerSecond, now);
    return takeTokens(this.requestBudget, ratePerSecond, want, now);
  }

  // ── Pix Automático ─────────────────────────────────────────────────────────

  /** Create, read, list and move recurrences (ledger/recurrence/recurrence-rpc.ts). */
  async recurrence(command: RecurrenceCommand) {
    return this.withAlarm(() =>
      recurrenceCommand(this.context(), this.idempotency, command, {
        cashIns: this.creatingCashIns,
        cycles: this.chargingCycles,
      }),
    );
  }

  // ── PIX health events ──────────────────────────────────────────────────────

  /** An incident change for this client's healthWebhookUrl, through the same outbox as the rest. */
  async emitHealthEvent(event: {
    eventType: string;
    incidentId: string;
    data: unknown;
    webhookUrl: string;
  }): Promise<void> {
    const ctx = this.context();
    await this.withAlarm(() => {
      ctx.storage.transactionSync(() =>
        emitWebhook(ctx, {
          aggregateId: `incident:${event.incidentId}`,
          eventType: event.eventType,
          data: event.data,
          webhookUrl: event.webhookUrl,
          at: Date.now(),
        }),
      );
    });
  }

  /** POST /admin/clients/{id}/archive: closed history before `before` to R2; its record concludes the run. */
  async archive(before: number, audit?: AuditRow): Promise<number> {
    return auditedRun(this.context(), this.env, audit, (ctx, done) => archiveAll(ctx, before, done));
  }

  // ── Time-driven work ───────────────────────────────────────────────────────
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
    await forwardAudit(this.context(), this.env);
    await this.tasks.runDue(true);
  }
}
