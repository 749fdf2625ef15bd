/**
 * What the soak knows at the end: what the driver did (transactions, deposits, rebalances,
 * retries, faults), and what the gateway and the partners' books say now. The invariant checker
 * (scripts/soak/invariants.ts) reads nothing else, so a test can hand it a tampered copy.
 */
import type { UnexpectedRecord } from './api';
import type { Kind, Outcome, Scenario } from './plan';

export interface TxRecord {
  clientId: string;
  kind: Kind;
  scenario: Scenario;
  transactionId: string;
  externalReference: string;
  amountCents: number;
  /** The final states the scenario may end in (a fault may add one: see `faults`). */
  expected: Outcome[];
  /** A refund or return was asked for, so PAID is not final yet. */
  expectsRefund: boolean;
  createdAt: number;
}

export interface TxView {
  status: string;
  amountCents: number;
  endToEndId?: string;
  originalEndToEndId?: string;
  failureCode?: string;
  reason?: string;
  settlement?: { ispb: string; account: string };
  /** Milliseconds since the epoch, from the view's requestedAt / completedAt / cancelledAt. */
  requestedAtMs?: number;
  endedAtMs?: number;
  /** When this view was read (a Cash-Out still PROCESSING has been so at least until then). */
  readAtMs?: number;
}

export interface TxSnapshot extends TxRecord {
  /** GET by id once final (or when waiting ran out). */
  view?: TxView;
  /** Status of each item of the list walk carrying this transactionId. */
  listed: string[];
  /** Webhook event types of this transaction in the order they happened. */
  events: string[];
}

export interface DepositRecord {
  clientId: string;
  accountNumber: string;
  entryId: string;
  amountCents: number;
}

export interface RebalanceRecord {
  clientId: string;
  rebalanceId: string;
  fromNumber: string;
  toNumber: string;
  amountCents: number;
}

/** Every answer to one idempotency key (the original and the client's retries). */
export interface RetryRecord {
  clientId: string;
  kind: Kind;
  externalReference: string;
  answers: { status: number; transactionId?: string; replayed: boolean }[];
}

export interface FaultRecord {
  ispb: string;
  operation: Kind;
  failureCode?: string;
  from: number;
  to: number;
}

export interface TrafficLog {
  transactions: TxRecord[];
  deposits: DepositRecord[];
  rebalances: RebalanceRecord[];
  retries: RetryRecord[];
  faults: FaultRecord[];
  /** Operations started and how they ended, per scenario. */
  ops: Map<Scenario | 'setup', { ok: number; failed: number }>;
  trafficMs: number;
  /** Archive passes made while the traffic ran (scripts/soak/archiver.ts) and what they moved. */
  archive: { calls: number; archived: number };
}

export interface StatementEntry {
  id: string;
  date: string;
  direction: 'CREDIT' | 'DEBIT';
  type: string;
  /** The partner's label: marks the devolutions a bank made on its own (ledger BANK_RETURN_LABEL). */
  typeRaw?: string;
  amountCents: number;
  balanceAfterCents?: number;
  description?: string;
  endToEndId?: string;
  originalEndToEndId?: string;
}

export interface AccountSnapshot {
  clientId: string;
  number: string;
  ispb: string;
  type: 'TRANSACTIONAL' | 'PROPRIETARY';
  /** The whole statement, oldest first. */
  statement: StatementEntry[];
  /** GET /account/balance. */
  balanceCents?: number;
  availableCents?: number;
}

/** One row of a sandbox partner's books (D1 sandbox_transfers). */
export interface PartnerTransfer {
  ispb: string;
  idempotencyId: string;
  kind: 'PAYMENT' | 'DEVOLUTION';
  amountCents: number;
  outcome: 'SETTLED' | 'FAILED';
  failureCode?: string;
  endToEndId?: string;
  requests: number;
}

/** The worker's console over the run: error lines are failures nobody answered with an HTTP error. */
export interface WorkerLog {
  lines: number;
  warnings: number;
  errors: string[];
}

export interface Snapshot {
  transactions: TxSnapshot[];
  accounts: AccountSnapshot[];
  deposits: DepositRecord[];
  rebalances: RebalanceRecord[];
  retries: RetryRecord[];
  faults: FaultRecord[];
  /** What the archiver moved to R2 while the traffic ran. */
  archive: { calls: number; archived: number };
  /** Accept a Cash-Out failure its partner's books show, even outside this run's fault windows. */
  tolerateForeignFaults?: boolean;
  partner: PartnerTransfer[];
  /** Items of the Cash-In and Cash-Out list walks per client that no driver transaction explains. */
  strayListed: { clientId: string; kind: Kind; transactionId: string; externalReference: string }[];
  /** What the worker logged during the run, when the caller could watch its console. */
  workerLog?: WorkerLog;
  /** HTTP requests made, and the answers no scenario expected (every 5xx among them). */
  requests: number;
  unexpected: UnexpectedRecord[];
}
