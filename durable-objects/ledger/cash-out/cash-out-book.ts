/**
 * What one pass of the Cash-Out executor (cash-out-exec.ts) writes, inside one storage transaction
 * per phase: reservations, stage moves of many Cash-Outs in one statement, cancellations and
 * completions. Fixed statement texts run on the SQL API directly; limit totals go through a
 * LimitBook, entries through one EntryCursor per account, and the webhook dispatch and health flush
 * are scheduled once per transaction instead of once per event. Every event and observation is the
 * one the step-by-step execution wrote (same type, same data), one per Cash-Out and state change.
 */
import type { ClientRow } from '../../../src/db/clients';
import {
  cashOutView,
  choosePartner,
  DUPLICATE_WINDOW_MS,
  limitViolation,
} from '../../../src/domain/cash-out';
import { holdViolation, reservationViolation } from '../../../src/domain/money-invariants';
import { needsApproval } from '../../../src/domain/transitions';
import { bankName, partnerName } from '../../../src/partners/config';
import type { TransferStatus } from '../../../src/partners/port';
import { sqlOf } from '../db';
import { booksTamper, guard } from '../ledger/books-guard';
import { EntryCursor } from '../ledger/entry-cursor';
import { type AccountRow, accountAt, available, fastHolds, transactionalAccounts } from '../ledger/ledger';
import type { LedgerContext } from '../ledger-context';
import { type ObservationInput, OutboxBuffer } from '../webhooks/events';
import { type CashOutRow, type Completion, cashOutWrites, type Reservation } from './cash-out-store';
import { LimitBook } from './limit-totals';

export const holdId = (transactionId: string) => `cash-out:${transactionId}`;

export class CashOutBook {
  private readonly sql: SqlStorage;
  private readonly limits: LimitBook;
  private readonly cursors = new Map<string, EntryCursor>();
  private events = false;
  private observations = false;
  /**
   * Writes of many Cash-Outs made in one statement each at `close` (set-based: one per-statement
   * cost per pass, not per Cash-Out). Only writes nothing in the pass reads back before `close`:
   * a reservation's stage and hold, a completion's row, hold and entry, every event.
   */
  private readonly outbox: OutboxBuffer;
  private readonly holdsPlaced: [string, string, number, string, number][] = [];
  private readonly holdsDropped: string[] = [];
  private readonly reservations: Reservation[] = [];
  private readonly completions: Completion[] = [];
  /** The duplicate check of a reserveAll: twins outside its rows (by seq), its rows by payee and amount. */
  private twins = {
    outside: new Set<number>(),
    among: new Map<string, CashOutRow[]>(),
    cancelled: new Set<number>(),
  };
  /** Available money per TRANSACTIONAL account, read once, lowered by each reservation. */
  private funds: { account: AccountRow; available: number }[] | undefined;

  constructor(
    private readonly ledger: LedgerContext,
    private readonly now: number,
  ) {
    this.sql = sqlOf(ledger.db);
    this.limits = new LimitBook(ledger.db);
    this.outbox = new OutboxBuffer(ledger);
  }

  /** Moves many Cash-Outs at once: `stage`, and when the executor takes them next. */
  move(seqs: number[], stage: 'SENDING' | 'SENT' | undefined, nextAt: number): void {
    if (seqs.length === 0) return;
    cashOutWrites.move(this.sql, seqs, stage ?? null, nextAt);
  }

  /**
   * Reservations of RECEIVED Cash-Outs, one after another in the order given; those approved to be
   * sent. The limit totals and the duplicates outside `rows` are read for all of them at once;
   * among `rows`, an earlier one counts as a duplicate unless this pass cancelled it.
   */
  reserveAll(rows: readonly CashOutRow[], client: ClientRow | undefined, degraded: ReadonlySet<string>) {
    this.limits.prefetch(rows);
    this.twins = {
      outside: cashOutWrites.twinsOutside(
        this.sql,
        rows.map((r) => ({ ...r, since: r.requestedAt - DUPLICATE_WINDOW_MS })),
      ),
      among: new Map(),
      cancelled: new Set(),
    };
    for (const row of rows) {
      const key = `${row.destinationKey}|${row.amount}`;
      const same = this.twins.among.get(key);
      if (same) same.push(row);
      else this.twins.among.set(key, [row]);
    }
    const approved: CashOutRow[] = [];
    for (const row of rows) {
      const next = this.reserve(row, client, degraded);
      if (next) approved.push(next);
    }
    return approved;
  }

  /**
   * Limits, duplicates, routing and the reservation of one RECEIVED Cash-Out; the next stage, or
   * undefined when it ended CANCELLED. Later Cash-Outs of the pass see this one's reservation.
   */
  private reserve(row: CashOutRow, client: ClientRow | undefined, degraded: ReadonlySet<string>) {
    this.events = true; // its CASHOUT_REQUESTED waits for this dispatch (acceptCashOut)
    const violation = limitViolation(
      row.amount,
      client?.limits ?? {},
      this.limits.usage(row.requestedAt, row.destinationKey),
    );
    if (violation) return this.cancel(row, violation, false);
    if (this.hasRecentTwin(row)) return this.cancel(row, 'DUPLICATED_TRANSFER', false);
    this.funds ??= transactionalAccounts(this.ledger.db).map((account) => ({
      account,
      available: available(this.ledger.db, account.number),
    }));
    const funds = this.funds;
    const ispb = choosePartner(
      funds.map((f) => ({
        ispb: f.account.ispb,
        available: f.available,
        degraded: degraded.has(f.account.ispb),
      })),
      row.amount,
    );
    const chosen = funds.find((f) => f.account.ispb === ispb);
    if (!chosen) return this.cancel(row, 'INSUFFICIENT_FUNDS', false);
    const { account } = chosen;
    const hold = { amount: row.amount, available: chosen.available - row.amount };
    booksTamper(this.ledger.db)?.hold?.(hold);
    // A hold never above what it holds for, nor what the account holds above its balance.
    const id = holdId(row.transactionId);
    guard(holdViolation({ id, account: account.number, amount: hold.amount, covers: row.amount }));
    guard(reservationViolation(account.number, account.balance - hold.available, account.balance));
    chosen.available = hold.available;
    this.limits.add(row.requestedAt, row.destinationKey, row.amount);
    const ref = `cash-out:${row.transactionId}`;
    this.holdsPlaced.push([id, account.number, hold.amount, ref, this.now]);
    const approval = needsApproval(row.amount, client?.approvalThresholdCents);
    const settlement = {
      ispb: account.ispb,
      bank: partnerName(this.ledger.env, account.ispb) ?? account.ispb,
      branch: account.branch,
      account: account.number,
    };
    // Deferred to `close`: the duplicate check of later ones reads only CANCELLED, written at once.
    this.reservations.push({
      seq: row.seq,
      partnerIspb: account.ispb,
      settlement,
      stage: approval ? 'AWAITING_APPROVAL' : 'APPROVED',
      status: approval ? 'PENDING' : 'PROCESSING',
      nextAt: approval ? null : this.now,
    });
    this.observe(row, { partnerIspb: account.ispb, event: 'CREATED', at: row.requestedAt });
    return approval
      ? undefined
      : ({ ...row, partnerIspb: account.ispb, settlement, stage: 'APPROVED', nextAt: this.now } as const);
  }

  /** An earlier, live Cash-Out of the same amount to the same payee within the window. */
  private hasRecentTwin(row: CashOutRow): boolean {
    const since = row.requestedAt - DUPLICATE_WINDOW_MS;
    const twins = this.twins;
    if (twins.outside.has(row.seq)) return true;
    const same = twins.among.get(`${row.destinationKey}|${row.amount}`) ?? [];
    return same.some((t) => t.seq < row.seq && t.requestedAt >= since && !twins.cancelled.has(t.seq));
  }

  /** Ends a Cash-Out CANCELLED; a reserved one gives its money and its limits back. */
  cancel(row: CashOutRow, failureCode: string, reserved: boolean): undefined {
    if (reserved) {
      // A hold exists exactly while a reserved Cash-Out is unsettled: it counted toward the limits.
      if (fastHolds.release(this.sql, holdId(row.transactionId)))
        this.limits.add(row.requestedAt, row.destinationKey, -row.amount);
    }
    cashOutWrites.cancelled(this.sql, row.seq, failureCode, this.now);
    this.twins.cancelled.add(row.seq);
    this.emit({
      ...row,
      status: 'CANCELLED',
      stage: 'DONE',
      failureCode,
      cancelledAt: this.now,
      nextAt: null,
    });
    if (row.partnerIspb) {
      this.observe(row, {
        partnerIspb: row.partnerIspb,
        event: 'FAILED',
        failureCode,
        latencyMs: this.now - row.requestedAt,
        at: this.now,
      });
    }
    return undefined;
  }

  /**
   * Books a settled payment: the hold becomes a PIX_OUT entry, the Cash-Out COMPLETED. False (and
   * nothing written) when its entry would be refused (a balance past exact integers): it stays where
   * it is and is logged.
   */
  complete(row: CashOutRow, status: Extract<TransferStatus, { state: 'SETTLED' }>): boolean {
    const ispb = row.partnerIspb as string;
    const cursor = this.cursor(ispb);
    const entry = {
      type: 'PIX_OUT' as const,
      amount: row.amount,
      ref: `cash-out:${row.transactionId}`,
      at: this.now,
      description: row.description ?? `PIX enviado ${row.internalCode}`,
      endToEndId: status.endToEndId,
      // The partner paid it: recorded even when a bank return since the hold left the balance short.
      settled: true,
    };
    if (cursor.refusal(entry)) return false;
    this.holdsDropped.push(holdId(row.transactionId));
    cursor.append(entry);
    const payee = status.payeeBank;
    const payeeBank = payee ? { ...payee, bank: bankName(this.ledger.env, payee.ispb) } : row.payeeBank;
    this.completions.push({ seq: row.seq, endToEndId: status.endToEndId, payeeBank: payeeBank ?? null });
    this.emit({
      ...row,
      status: 'COMPLETED',
      stage: 'DONE',
      endToEndId: status.endToEndId,
      completedAt: this.now,
      payeeBank,
      nextAt: null,
    });
    this.observe(row, {
      partnerIspb: ispb,
      institutionIspb: payee?.ispb ?? null,
      event: 'SETTLED',
      latencyMs: this.now - row.requestedAt,
      at: this.now,
    });
    return true;
  }

  private cursor(ispb: string): EntryCursor {
    let cursor = this.cursors.get(ispb);
    if (!cursor) {
      const account = accountAt(this.ledger.db, ispb, 'TRANSACTIONAL');
      if (!account) throw new Error(`no TRANSACTIONAL account at ${ispb}`);
      cursor = new EntryCursor(this.ledger.db, account.number, true);
      this.cursors.set(ispb, cursor);
    }
    return cursor;
  }

  private emit(row: CashOutRow): void {
    const eventType = row.status === 'COMPLETED' ? 'CASHOUT_COMPLETED' : 'CASHOUT_FAILED';
    const event = { aggregateId: row.transactionId, eventType, data: cashOutView(row) };
    this.outbox.webhook({ ...event, webhookUrl: row.webhookUrl, at: this.now });
    this.events = true;
  }

  private observe(row: CashOutRow, input: Omit<ObservationInput, 'operation'>): void {
    this.outbox.observe(row.transactionId, { operation: 'CASH_OUT', ...input });
    this.observations = true;
  }

  /**
   * The deferred writes, balances, limit totals and the outbox tasks: once, as the transaction's
   * last writes.
   */
  close(): void {
    fastHolds.placeMany(this.sql, this.holdsPlaced);
    cashOutWrites.reservedMany(this.sql, this.reservations);
    fastHolds.dropMany(this.sql, this.holdsDropped);
    for (const cursor of this.cursors.values()) cursor.close();
    cashOutWrites.completedMany(this.sql, this.completions, this.now);
    this.outbox.flush();
    this.limits.flush();
    if (this.events) this.ledger.scheduler.schedule('dispatch-webhooks', 'all', this.now);
    if (this.observations) this.ledger.scheduler.schedule('flush-outbox', 'all', this.now);
  }
}
