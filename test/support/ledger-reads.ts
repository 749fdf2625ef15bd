/**
 * What a client's ClientLedger holds, read through the stores that own its tables (their own query
 * functions, inside the object), typed by the drizzle schema: a test asserts on `balanceAfter`, and a
 * renamed column changes its store and schema, not the tests. The D1 side reads through src/db.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { allRuns } from '../../durable-objects/ledger/archive/archive-runs-store';
import { allSegments, archiveSizes } from '../../durable-objects/ledger/archive/archive-store';
import { allArchiveTotals } from '../../durable-objects/ledger/archive/archive-totals-store';
import { pendingAudit } from '../../durable-objects/ledger/audit-outbox-store';
import {
  allCashIns,
  cashInByInternalCode,
  findCashIn,
} from '../../durable-objects/ledger/cash-in/cash-in-store';
import { allSuspenseEntries } from '../../durable-objects/ledger/cash-in/unapplied-store';
import { allCashOuts, findCashOut } from '../../durable-objects/ledger/cash-out/cash-out-store';
import { allLimitTotals } from '../../durable-objects/ledger/cash-out/limit-totals';
import { sqlOf } from '../../durable-objects/ledger/db';
import { keptCycleCodes } from '../../durable-objects/ledger/internal-codes';
import { allIdempotencyKeys } from '../../durable-objects/ledger/ledger/idempotency';
import { allAccounts, allEntries, allHolds } from '../../durable-objects/ledger/ledger/ledger-store';
import type { LedgerContext } from '../../durable-objects/ledger/ledger-context';
import {
  allRecurrenceCharges,
  allRecurrences,
} from '../../durable-objects/ledger/recurrence/recurrence-store';
import { allTasks } from '../../durable-objects/ledger/scheduler';
import { readProfile } from '../../durable-objects/ledger/settings-store';
import { allDeliveries, allOutbox } from '../../durable-objects/ledger/webhooks/outbox-store';
import { sandboxTransfersOf } from '../../src/db/sandbox-transfers';
import { ledgerContextOf, ledgerStub } from './ledger';

/** Runs `read` inside the client's object, on its ledger's view (its drizzle db and storage). */
export function inLedger<T>(clientId: string, read: (ledger: LedgerContext) => T): Promise<T> {
  return runInDurableObject(ledgerStub(clientId), (instance) => read(ledgerContextOf(instance)));
}

export const cashIns = (clientId: string) => inLedger(clientId, (l) => allCashIns(l.db));
/** A Cash-In by TxId (or any id its look-up takes). */
export const cashInRow = (clientId: string, id: string) => inLedger(clientId, (l) => findCashIn(l.db, id));
export const cashInByCode = (clientId: string, internalCode: string) =>
  inLedger(clientId, (l) => cashInByInternalCode(l.db, internalCode));

export const cashOuts = (clientId: string) => inLedger(clientId, (l) => allCashOuts(l.db));
export const cashOutRow = (clientId: string, id: string) => inLedger(clientId, (l) => findCashOut(l.db, id));

/** Ledger entries in posting order; of one operation (`cash-in:<id>`, …) when `ref` is given. */
export const ledgerEntries = (clientId: string, ref?: string) =>
  inLedger(clientId, (l) => allEntries(l.db).filter((e) => ref === undefined || e.ref === ref));
export const accounts = (clientId: string) => inLedger(clientId, (l) => allAccounts(l.db));
export const accountBalance = async (clientId: string, number: string) =>
  (await accounts(clientId)).find((a) => a.number === number)?.balance;
export const holds = (clientId: string) => inLedger(clientId, (l) => allHolds(l.db));
export const limitTotals = (clientId: string) => inLedger(clientId, (l) => allLimitTotals(l.db));
export const suspenseEntries = (clientId: string) => inLedger(clientId, (l) => allSuspenseEntries(l.db));

/** Scheduled tasks, soonest first; of one kind when given. */
export const tasks = (clientId: string, kind?: string) =>
  inLedger(clientId, (l) => allTasks(l.db).filter((t) => kind === undefined || t.kind === kind));
export const idempotencyKeys = (clientId: string) => inLedger(clientId, (l) => allIdempotencyKeys(l.db));

/** Outbox events in order; of one channel (`webhook`, `health`) when given. */
export const outboxRows = (clientId: string, channel?: string) =>
  inLedger(clientId, (l) => allOutbox(l.db).filter((e) => channel === undefined || e.channel === channel));
export const deliveries = (clientId: string) => inLedger(clientId, (l) => allDeliveries(l.db));

export const archiveSegments = (clientId: string) => inLedger(clientId, (l) => allSegments(l.db));
export const archiveTotals = (clientId: string) => inLedger(clientId, (l) => allArchiveTotals(l.db));
/** The folded manifest's runs (archive-fold.ts), by kind, day and first id. */
export const archiveRuns = (clientId: string) => inLedger(clientId, (l) => allRuns(l.db));
/** Row counts of the archive's id indexes and delivery queue (the delivery index of one segment when named). */
export const archiveSizesOf = (clientId: string, segment?: number) =>
  inLedger(clientId, (l) => archiveSizes(sqlOf(l.db), segment));

export const recurrences = (clientId: string) => inLedger(clientId, (l) => allRecurrences(l.db));
export const recurrenceCharges = (clientId: string) => inLedger(clientId, (l) => allRecurrenceCharges(l.db));
export const cycleCodesKept = (clientId: string) => inLedger(clientId, (l) => keptCycleCodes(l.db));
export const auditKept = (clientId: string) => inLedger(clientId, (l) => pendingAudit(l.db, 1000));
export const profileOf = (clientId: string) => inLedger(clientId, (l) => readProfile(l.db));

/** The sandbox partner's books (D1) for these idempotency ids (a Cash-Out's TxId, a refund's id), at any partner. */
export const partnerTransfers = (ids: string[]) => sandboxTransfersOf(env, ids);
export const partnerTransfer = async (id: string) => (await sandboxTransfersOf(env, [id]))[0];
