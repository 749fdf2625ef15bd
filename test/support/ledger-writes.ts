/**
 * What a test changes in a client's ClientLedger by hand to stage a moment (a Cash-In past its expiry,
 * a task due now, a retry due, a key a day old), through drizzle's query builder over the object's
 * schema, typed like ledger-reads.ts: no SQL text, so a renamed column stays in the schema.
 */
import { runInDurableObject } from 'cloudflare:test';
import { and, eq, inArray, like, type SQL, sql } from 'drizzle-orm';
import {
  allSegments,
  dropSegment,
  insertIndexEntries,
} from '../../durable-objects/ledger/archive/archive-store';
import { type LedgerDb, sqlOf } from '../../durable-objects/ledger/db';
import {
  accounts,
  archiveReferenceFilters,
  archiveReferencePending,
  archiveSegments,
  archiveTotals,
  cashIns,
  cashOuts,
  holds,
  idempotencyKeys,
  ledgerEntries,
  outbox,
  recurrences,
  tasks,
  webhookDeliveries,
} from '../../durable-objects/ledger/schema';
import { readProfile, updateProfile } from '../../durable-objects/ledger/settings-store';
import type { DeliveryRow } from '../../durable-objects/ledger/webhooks/outbox-store';
import { ledgerContextOf, ledgerStub } from './ledger';

/** Runs `change` inside the client's object on its drizzle db. */
export function inLedgerDb<T>(clientId: string, change: (db: LedgerDb) => T): Promise<T> {
  return runInDurableObject(ledgerStub(clientId), (instance) => change(ledgerContextOf(instance).db));
}

/** Which tasks: all, of a kind, one by id, or those whose id starts with a prefix. */
export interface TaskFilter {
  kind?: string;
  id?: string;
  idPrefix?: string;
}
const taskWhere = (f: TaskFilter = {}): SQL | undefined =>
  and(
    f.kind === undefined ? undefined : eq(tasks.kind, f.kind),
    f.id === undefined ? undefined : eq(tasks.id, f.id),
    f.idPrefix === undefined ? undefined : like(tasks.id, `${f.idPrefix}%`),
  );

export const setTasksDue = (clientId: string, filter: TaskFilter, dueAt: number) =>
  inLedgerDb(clientId, (db) => db.update(tasks).set({ dueAt }).where(taskWhere(filter)).run());
export const dropTasks = (clientId: string, filter?: TaskFilter) =>
  inLedgerDb(clientId, (db) => db.delete(tasks).where(taskWhere(filter)).run());
/** Adds the task `kind:ref`, or moves it to `dueAt`. */
/** Adds the task `kind:ref`, or moves it to `dueAt`. */
export const addTask = (clientId: string, kind: string, ref: string, dueAt: number, attempts?: number) =>
  inLedgerDb(clientId, (db) =>
    db
      .insert(tasks)
      .values({ id: `${kind}:${ref}`, kind, ref, dueAt, attempts })
      .onConflictDoUpdate({ target: tasks.id, set: attempts === undefined ? { dueAt } : { dueAt, attempts } })
      .run(),
  );

/** Moves a Cash-In's expiry (by its internal code or TxId). */
export const setCashInExpiry = (
  clientId: string,
  by: { internalCode: string } | { transactionId: string },
  at: number,
) =>
  inLedgerDb(clientId, (db) =>
    db
      .update(cashIns)
      .set({ expiresAt: at })
      .where(
        'internalCode' in by
          ? eq(cashIns.internalCode, by.internalCode)
          : eq(cashIns.transactionId, by.transactionId),
      )
      .run(),
  );

/** Makes an idempotency key `ms` older. */
export const ageIdempotencyKey = (clientId: string, key: string, ms: number) =>
  inLedgerDb(clientId, (db) =>
    db
      .update(idempotencyKeys)
      .set({ createdAt: sql`${idempotencyKeys.createdAt} - ${ms}` })
      .where(eq(idempotencyKeys.key, key))
      .run(),
  );

/** Changes a webhook delivery's stored state (its status, due time, dispatch count). */
export const setDelivery = (clientId: string, eventId: string, changes: Partial<DeliveryRow>) =>
  inLedgerDb(clientId, (db) =>
    db.update(webhookDeliveries).set(changes).where(eq(webhookDeliveries.eventId, eventId)).run(),
  );

export const setRecurrenceStart = (clientId: string, recurrenceId: string, startDate: string) =>
  inLedgerDb(clientId, (db) =>
    db.update(recurrences).set({ startDate }).where(eq(recurrences.recurrenceId, recurrenceId)).run(),
  );

/** Entries written as they are, without the ledger's rules: history of a shape the API cannot make. */
export const addEntries = (clientId: string, rows: (typeof ledgerEntries.$inferInsert)[]) =>
  inLedgerDb(clientId, (db) => db.insert(ledgerEntries).values(rows).run());

/** Replaces the stored profile's name as is (a client onboarded before names were checked). */
export const setProfileName = (clientId: string, name: string) =>
  inLedgerDb(clientId, (db) => {
    const profile = readProfile(db);
    if (profile) updateProfile(db, { ...profile, name });
  });

/** A hold placed as is: someone else's money in flight. */
export const addHold = (clientId: string, row: typeof holds.$inferInsert) =>
  inLedgerDb(clientId, (db) => db.insert(holds).values(row).run());

/** Wakes the object's alarm in `ms` (it runs whatever tasks are due by then). */
export const wakeIn = (clientId: string, ms: number) =>
  runInDurableObject(ledgerStub(clientId), (_instance, state) => state.storage.setAlarm(Date.now() + ms));

/** Changes a Cash-In's stored fields as they are (a state a crash left, a clock moved). */
export const setCashIn = (
  clientId: string,
  internalCode: string,
  changes: Partial<typeof cashIns.$inferInsert>,
) =>
  inLedgerDb(clientId, (db) =>
    db.update(cashIns).set(changes).where(eq(cashIns.internalCode, internalCode)).run(),
  );

/** Moves every Cash-In's stored times `ms` into the past (the archive's age rules read them). */
export const ageCashIns = (clientId: string, ms: number) =>
  inLedgerDb(clientId, (db) =>
    db
      .update(cashIns)
      .set({
        requestedAt: sql`${cashIns.requestedAt} - ${ms}`,
        expiresAt: sql`${cashIns.expiresAt} - ${ms}`,
        paidAt: sql`${cashIns.paidAt} - ${ms}`,
        cancelledAt: sql`${cashIns.cancelledAt} - ${ms}`,
      })
      .run(),
  );

/** Moves every Cash-Out's stored times `ms` into the past (the archive's age rules read them). */
export const ageCashOuts = (clientId: string, ms: number) =>
  inLedgerDb(clientId, (db) =>
    db
      .update(cashOuts)
      .set({
        requestedAt: sql`${cashOuts.requestedAt} - ${ms}`,
        completedAt: sql`${cashOuts.completedAt} - ${ms}`,
        cancelledAt: sql`${cashOuts.cancelledAt} - ${ms}`,
        refundedAt: sql`${cashOuts.refundedAt} - ${ms}`,
      })
      .run(),
  );

/** Forgets the externalReference filter, as a version before it left the archived segments. */
export const dropReferenceFilters = (clientId: string) =>
  inLedgerDb(clientId, (db) => {
    db.delete(archiveReferenceFilters).run();
    db.delete(archiveReferencePending).run();
  });

/** Moves every ledger entry `ms` into the past. */
export const ageEntries = (clientId: string, ms: number) =>
  inLedgerDb(clientId, (db) =>
    db
      .update(ledgerEntries)
      .set({ createdAt: sql`${ledgerEntries.createdAt} - ${ms}` })
      .run(),
  );

/** Changes every Cash-In's TxId (a client with one Cash-In: an id of an older format). */
export const setOnlyCashInTxId = (clientId: string, transactionId: string) =>
  inLedgerDb(clientId, (db) => db.update(cashIns).set({ transactionId }).run());

/** Changes every Cash-In's internalCode and TxId (a client with one Cash-In: a code of an older form). */
export const setOnlyCashInCode = (clientId: string, internalCode: string, transactionId: string) =>
  inLedgerDb(clientId, (db) => db.update(cashIns).set({ internalCode, transactionId }).run());

/** Segments of `kind` as a version before migration 0007 left them: no range, no count, no totals; and no running totals. */
export const asLegacySegments = (clientId: string, kind: string) =>
  inLedgerDb(clientId, (db) => {
    db.update(archiveSegments)
      .set({ firstTime: null, firstSeq: null, lastTime: null, lastSeq: null, count: null, totals: null })
      .where(eq(archiveSegments.kind, kind))
      .run();
    db.delete(archiveTotals).run();
  });

/** The same kind of changes for a test already inside the object (runInDurableObject), on its drizzle db. */
export const writeIn = {
  dropTasks: (db: LedgerDb, filter?: TaskFilter) => db.delete(tasks).where(taskWhere(filter)).run(),
  addTask: (db: LedgerDb, kind: string, ref: string, dueAt: number) =>
    db
      .insert(tasks)
      .values({ id: `${kind}:${ref}`, kind, ref, dueAt })
      .run(),
  setBalance: (db: LedgerDb, number: string, balance: number) =>
    db.update(accounts).set({ balance }).where(eq(accounts.number, number)).run(),
  addCashOut: (db: LedgerDb, row: typeof cashOuts.$inferInsert) => db.insert(cashOuts).values(row).run(),
};

/** An outbox event written as is (one an older version stored, one not yet handed on). */
export const addOutboxEvent = (clientId: string, row: typeof outbox.$inferInsert) =>
  inLedgerDb(clientId, (db) => db.insert(outbox).values(row).run());

/** Moves the manifest times of every segment of `kind` `ms` into the past. */
export const ageSegments = (clientId: string, kind: string, ms: number) =>
  inLedgerDb(clientId, (db) =>
    db
      .update(archiveSegments)
      .set({
        firstTime: sql`${archiveSegments.firstTime} - ${ms}`,
        lastTime: sql`${archiveSegments.lastTime} - ${ms}`,
      })
      .where(eq(archiveSegments.kind, kind))
      .run(),
  );

/** As if nothing had run since the events were written: every event unpublished, no delivery, flush and dispatch due. */
export const asNothingRan = (clientId: string) =>
  inLedgerDb(clientId, (db) => {
    db.update(outbox).set({ publishedAt: null }).run();
    db.delete(webhookDeliveries).run();
    db.delete(tasks)
      .where(inArray(tasks.kind, ['flush-outbox', 'dispatch-webhooks']))
      .run();
    db.insert(tasks)
      .values([
        { id: 'flush-outbox:all', kind: 'flush-outbox', ref: 'all', dueAt: 0, attempts: 0 },
        { id: 'dispatch-webhooks:all', kind: 'dispatch-webhooks', ref: 'all', dueAt: 0, attempts: 0 },
      ])
      .run();
  });

/**
 * A client's one Cash-Out put back at an executor step, as if its object had died there, and due now:
 * RECEIVED is before the reservation committed (no hold, no partner yet).
 */
export const asCashOutDiedAt = (clientId: string, stage: 'RECEIVED' | 'APPROVED' | 'SENDING' | 'SENT') =>
  inLedgerDb(clientId, (db) => {
    if (stage === 'RECEIVED') {
      db.delete(holds).run();
      db.update(cashOuts)
        .set({ stage: 'RECEIVED', status: 'PROCESSING', partnerIspb: null, settlement: null })
        .run();
    } else db.update(cashOuts).set({ stage, status: 'PROCESSING' }).run();
    db.update(cashOuts).set({ nextAt: Date.now() }).run();
    db.insert(tasks)
      .values({ id: 'cash-out-exec:all', kind: 'cash-out-exec', ref: 'all', dueAt: Date.now(), attempts: 0 })
      .onConflictDoUpdate({ target: tasks.id, set: { dueAt: Date.now(), attempts: 0 } })
      .run();
  });

/** Pairs of (id hash, segment) in the object's own id index, as the generation before the registry wrote them. */
export const addIndexEntries = (clientId: string, pairs: [number, number][]) =>
  inLedgerDb(clientId, (db) => {
    for (const [hash, segment] of pairs) insertIndexEntries(sqlOf(db), 'main', segment, [hash]);
  });

/** Drops every reserved (WRITING) segment, as archive.ts does when a row changed during the put; answers them. */
export const dropReservations = (clientId: string) =>
  inLedgerDb(clientId, (db) => {
    const reserved = allSegments(db).filter((s) => s.state === 'WRITING');
    for (const s of reserved) dropSegment(db, s.id);
    return reserved;
  });
