/**
 * Parking (docs/storage-schema.md, Idempotency keys and delivery lists): while a client's endpoint is
 * down, every event waits hours between attempts (retry-schedule.ts), and a million transactions a
 * day would keep gigabytes of open deliveries in the object. Over its size budget, a transaction
 * whose next attempt is PARK_MIN_WAIT_MS (10 min) or more away has its open deliveries (rows and payloads)
 * written to one R2 segment with others due about then, and deleted hot; a mark per transaction
 * (its aggregateId's hash) stays. The dispatcher reads a segment back READ_BACK_LEAD_MS before its
 * earliest attempt is due, exactly as parked, and each delivery then goes on as if it had never left.
 *
 * Order per transaction holds: only whole transactions are parked, and a new event of a parked one
 * waits (deferHeadIfParked) until its segment is back. The operator lists read parked rows where
 * they would show them hot, and a retry reads its segment back first. A report for a parked delivery
 * (a late duplicate's outcome: parking never takes a transaction with one IN_FLIGHT) finds no row and
 * is dropped; the delivery is sent again on its schedule, under the same webhook-id.
 *
 * Crash safety: reserve (WRITING) → put → crash point `webhooks.parked-written` → one transaction that
 * re-reads the transactions' open rows (any change during the put drops the reservation), deletes
 * them and marks the segment PARKED. A leftover reservation is dropped at the next step; its object is
 * never read. A read-back inserts the rows and drops the segment in one transaction, then deletes the
 * object.
 */
import { eventSeqOf } from '../../../src/domain/ids';
import { errorFields, log } from '../../../src/infra/log';
import { idHash } from '../archive/archive-index';
import { gunzipJson, gzipJson } from '../archive/archive-segments';
import type { LedgerContext } from '../ledger-context';
import { addFromSegmentsDown, type DeliveryListInput, type DeliveryRow } from './delivery-view';
import {
  deleteDeliveriesBySeq,
  findDelivery,
  insertDeliveryRow,
  openDeliveriesOf,
  parkCandidates,
  undeferWaiting,
  updateDelivery,
} from './outbox-store';
import {
  dropParkedSegment,
  earliestParkedDue,
  isParked,
  markParked,
  type ParkedSegment,
  parkedDueBy,
  parkedSegmentsDown,
  parkedSegmentsHolding,
  parkedSegmentsOf,
  reserveParkedSegment,
  writingSegments,
} from './parking-store';

/**
 * Parked while the next attempt is this far away or more: within the 30 min, 2 h, 5 h, 10 h and 10 h
 * waits (retry-schedule.ts), never the 5 s and 5 min ones, nor one read back to be sent.
 */
export const PARK_MIN_WAIT_MS = 10 * 60_000;
/** A segment is read back this long before its earliest attempt is due. */
export const READ_BACK_LEAD_MS = 60_000;
/** Long waits that begin within this of each other are parked in one step. */
export const PARK_BATCH_MS = 10_000;
/** Transactions per segment. */
const SEGMENT_TRANSACTIONS = 200;
/** Segments written per step. */
const SEGMENTS_PER_STEP = 5;
/** Segments read back per dispatch run. */
const READ_BACKS_PER_RUN = 10;
/** A read-back that failed (R2 unavailable) is tried again this much later. */
const READ_BACK_RETRY_MS = 1_000;
/** The body's format: `{"v":1,"clientId":…,"rows":[delivery rows as stored, payload on each]}`. */
const PARKED_VERSION = 1;

interface ParkedBody {
  v: number;
  clientId: string;
  rows: DeliveryRow[];
}

export const parkedKey = (clientId: string, id: number) => `${clientId}/parked/${id}.json.gz`;

/** What a parked transaction's rows must still be when they are deleted: any change drops the segment. */
const fingerprint = (rows: readonly DeliveryRow[]) =>
  JSON.stringify(rows.map((r) => [r.seq, r.status, r.attempts, r.dispatches, r.dueAt, r.updatedAt]));

const openRowsOf = (ledger: LedgerContext, ids: readonly string[]) =>
  ids.flatMap((id) => openDeliveriesOf(ledger.db, id));

/** Reservations a crash left behind go, with whatever was put. */
async function dropLeftovers(ledger: LedgerContext): Promise<void> {
  const sql = ledger.storage.sql;
  const left = writingSegments(sql);
  if (left.length === 0) return;
  ledger.storage.transactionSync(() => {
    for (const id of left) dropParkedSegment(sql, id, []);
  });
  for (const id of left) await ledger.env.ARCHIVE.delete(parkedKey(ledger.profile.clientId, id));
}

/** The next segment to write, reserved: the transactions due earliest, none marked parked already. */
function reserveNext(ledger: LedgerContext, now: number) {
  const sql = ledger.storage.sql;
  const candidates = parkCandidates(sql, now + PARK_MIN_WAIT_MS, SEGMENT_TRANSACTIONS);
  // A mark under the same hash (another transaction's, 47 bits) leaves this one hot: never two
  // segments for one hash, so a read-back never lets a later event pass an earlier one.
  const kept = candidates.filter((c) => parkedSegmentsOf(sql, idHash(c.id)).length === 0);
  if (kept.length === 0) return undefined;
  const ids = kept.map((c) => c.id);
  const rows = openRowsOf(ledger, ids);
  const seqs = rows.map((r) => r.seq);
  const dueAt = Math.min(...kept.map((c) => c.due));
  const id = reserveParkedSegment(sql, {
    dueAt,
    firstSeq: Math.min(...seqs),
    lastSeq: Math.max(...seqs),
    rows: rows.length,
  });
  return { id, ids, rows, dueAt, full: candidates.length === SEGMENT_TRANSACTIONS };
}

/**
 * One parking step (the `park-webhooks` task, while the object is over its budget): up to
 * SEGMENTS_PER_STEP segments. True when transactions to park may remain.
 */
export async function parkWebhooks(ledger: LedgerContext, now: number): Promise<boolean> {
  await dropLeftovers(ledger);
  const sql = ledger.storage.sql;
  const { clientId } = ledger.profile;
  for (let step = 0; step < SEGMENTS_PER_STEP; step++) {
    const next = ledger.storage.transactionSync(() => reserveNext(ledger, now));
    if (next === undefined) return false;
    const key = parkedKey(clientId, next.id);
    const body: ParkedBody = { v: PARKED_VERSION, clientId, rows: next.rows };
    await ledger.env.ARCHIVE.put(key, await gzipJson(body));
    await ledger.crashes.reach('webhooks.parked-written');
    const parked = ledger.storage.transactionSync(() => {
      if (fingerprint(openRowsOf(ledger, next.ids)) !== fingerprint(next.rows)) {
        dropParkedSegment(sql, next.id, []);
        return false;
      }
      deleteDeliveriesBySeq(sql, JSON.stringify(next.rows.map((r) => r.seq)));
      markParked(
        sql,
        next.id,
        next.ids.map((id) => idHash(id)),
      );
      // The dispatcher reads it back: its run must come by then (it may have nothing else hot).
      ledger.scheduler.scheduleAll([['dispatch-webhooks', 'all', next.dueAt - READ_BACK_LEAD_MS]]);
      return true;
    });
    // A transaction changed during the put (a new event, an operator retry): the next step plans again.
    if (!parked) {
      await ledger.env.ARCHIVE.delete(key);
      return true;
    }
    if (!next.full) return false;
  }
  return true;
}

/** Whether any transaction could be parked now (the task's next run). */
export function parkingDue(ledger: LedgerContext, now: number): boolean {
  return parkCandidates(ledger.storage.sql, now + PARK_MIN_WAIT_MS, 1).length > 0;
}

async function readParked(ledger: LedgerContext, id: number): Promise<DeliveryRow[]> {
  const key = parkedKey(ledger.profile.clientId, id);
  const object = await ledger.env.ARCHIVE.get(key);
  if (!object) {
    // Read back while this read waited (its rows are hot now): none parked. A PARKED segment's object
    // is deleted only in its read-back, so missing while PARKED is a broken store, never "none".
    if (!isParked(ledger.storage.sql, id)) return [];
    throw new Error(`parked webhook segment missing: ${key}`);
  }
  const body = await gunzipJson<ParkedBody>(object.body);
  if (body.v !== PARKED_VERSION)
    throw new Error(`parked webhook segment format v${String(body.v)} is not one this deployment reads`);
  return body.rows;
}

/**
 * A parked segment comes back hot, exactly as parked, and leaves with its marks; events of its
 * transactions that waited for it are due again. Then its object goes.
 */
async function readBack(ledger: LedgerContext, segment: ParkedSegment, rows?: DeliveryRow[]): Promise<void> {
  const body = rows ?? (await readParked(ledger, segment.id));
  const sql = ledger.storage.sql;
  const back = ledger.storage.transactionSync(() => {
    // Read back meanwhile (a retry, another run): nothing to do.
    if (!isParked(sql, segment.id)) return false;
    for (const row of body) insertDeliveryRow(ledger.db, row);
    const ids = [...new Set(body.map((r) => r.aggregateId))];
    const now = Date.now();
    for (const id of ids) undeferWaiting(sql, id, now);
    dropParkedSegment(
      sql,
      segment.id,
      ids.map((id) => idHash(id)),
    );
    return true;
  });
  if (back) await ledger.env.ARCHIVE.delete(parkedKey(ledger.profile.clientId, segment.id));
}

/**
 * The dispatcher's first step: segments due within READ_BACK_LEAD_MS come back hot. One that cannot
 * be read now is logged and tried again (nextReadBackAt); its transactions' new events keep waiting.
 */
export async function readBackDue(ledger: LedgerContext, now: number): Promise<void> {
  for (const segment of parkedDueBy(ledger.storage.sql, now + READ_BACK_LEAD_MS, READ_BACKS_PER_RUN)) {
    try {
      await readBack(ledger, segment);
    } catch (error) {
      log('error', 'parked webhook deliveries could not be read back; trying again', {
        clientId: ledger.profile.clientId,
        segment: segment.id,
        ...errorFields(error),
      });
    }
  }
}

/** The earliest due parked segment's due time; undefined when nothing is parked. */
export const earliestParked = (ledger: LedgerContext) => earliestParkedDue(ledger.storage.sql);

/** When the dispatcher must run to read back the segment due at `due` (earliestParked), if any. */
export function nextReadBackAt(due: number | undefined, now: number): number | undefined {
  if (due === undefined) return undefined;
  return due - READ_BACK_LEAD_MS > now ? due - READ_BACK_LEAD_MS : now + READ_BACK_RETRY_MS;
}

/**
 * A due head whose transaction is parked (a new event of it) waits for its segment: its due time moves
 * to the segment's (the head comes back a minute before). True when it must not be sent now.
 */
export function deferHeadIfParked(
  ledger: LedgerContext,
  row: DeliveryRow,
  now: number,
  parked: boolean,
): boolean {
  if (!parked) return false;
  const segment = parkedSegmentsOf(ledger.storage.sql, idHash(row.aggregateId))[0];
  if (segment === undefined) return false;
  updateDelivery(ledger.db, row.seq, { dueAt: Math.max(segment.dueAt, now + READ_BACK_LEAD_MS) });
  return true;
}

/**
 * Before an operator retry: the segment holding the delivery comes back hot, the others of it too.
 * A hot one (a GIVEN_UP one read back from the archive) brings its transaction's parked segments back,
 * so it goes now, ahead of its later events, instead of waiting for them.
 */
export async function readBackHolding(ledger: LedgerContext, eventId: string): Promise<void> {
  const seq = eventSeqOf(eventId);
  if (seq === undefined) return;
  const hot = findDelivery(ledger.db, eventId);
  if (hot) {
    for (const segment of parkedSegmentsOf(ledger.storage.sql, idHash(hot.aggregateId)))
      await readBack(ledger, segment);
    return;
  }
  for (const segment of parkedSegmentsHolding(ledger.storage.sql, seq)) {
    const rows = await readParked(ledger, segment.id);
    if (rows.some((r) => r.seq === seq && r.eventId === eventId)) return readBack(ledger, segment, rows);
  }
}

/** Segments opened per look-up of a list page. */
const LIST_BATCH = 8;

/** Whether a parked row belongs on the page (parked rows are PENDING or FAILED, never hot). */
const listable = (row: DeliveryRow, input: DeliveryListInput) =>
  (input.status === undefined || row.status === input.status) &&
  (input.before === undefined || row.seq < input.before) &&
  (input.aggregateId === undefined || row.aggregateId === input.aggregateId);

/**
 * The parked rows of an operator list page, added to `rows` (seq → row): by aggregateId, its
 * transaction's segments; else segments in the order of their newest seq, opened while one could
 * still land among the page's limit + 1 newest.
 */
export async function addParkedRows(
  ledger: LedgerContext,
  input: DeliveryListInput,
  rows: Map<number, DeliveryRow>,
): Promise<void> {
  if (input.status !== undefined && input.status !== 'PENDING' && input.status !== 'FAILED') return;
  const sql = ledger.storage.sql;
  const add = (found: DeliveryRow[]) => {
    for (const row of found) if (!rows.has(row.seq) && listable(row, input)) rows.set(row.seq, row);
  };
  if (input.aggregateId !== undefined) {
    for (const segment of parkedSegmentsOf(sql, idHash(input.aggregateId)))
      add(await readParked(ledger, segment.id));
    return;
  }
  await addFromSegmentsDown<ParkedSegment>(
    input,
    rows,
    LIST_BATCH,
    (after) => parkedSegmentsDown(sql, LIST_BATCH, after),
    async (segment) => (await readParked(ledger, segment.id)).filter((row) => listable(row, input)),
  );
}
