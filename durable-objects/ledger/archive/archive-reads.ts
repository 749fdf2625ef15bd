/**
 * Reads that reach into the archive: a GET by id finds the same transaction, with the same
 * precedence (ledger/lookup.ts), whether its row is hot or in an R2 segment; a rehydration brings an
 * archived row back hot before a change.
 */
import { type FixedKind, fixedFields } from '../../../src/domain/fixed-fields';
import { errorFields, log } from '../../../src/infra/log';
import { insertRow, isHot } from '../archivable';
import { type CashInRow, findCashIn } from '../cash-in/cash-in-store';
import { type CashOutRow, findCashOut } from '../cash-out/cash-out-store';
import type { LedgerContext } from '../ledger-context';
import { archivedSegments, idHash, segmentsFor, unregisterIds } from './archive-index';
import { forgetRuns } from './archive-manifest';
import { gunzipJson, type Segment, segmentRows, utcDay } from './archive-segments';
import { type ArchiveSource, cashInSource, cashOutSource } from './archive-sources';
import { markStale, staleSeqs } from './archive-stale-store';
import { totalsOf } from './archive-totals';
import { addDayTotals } from './archive-totals-store';

type Row = Record<string, unknown>;

/** Precedence level of `id` on a row (docs/contract.md, Lookup by id): lower wins; undefined = no match. */
export function matchLevel(row: Row, id: string): number | undefined {
  if (row.internalCode === id) return 0;
  if (row.transactionId === id) return 1;
  if (row.endToEndId === id) return 2;
  if (row.refundEndToEndId === id || row.refundRequestId === id) return 3;
  if (row.externalReference === id) return 4;
  return undefined;
}

/** Decoded segment rows by key: segments are immutable, so a cached copy never goes stale. */
const cache = new Map<string, Row[]>();
const CACHE_SEGMENTS = 8;

/** Forgets every decoded segment and run body (a test counting a cold read's R2 gets). */
export function forgetDecoded(): void {
  cache.clear();
  forgetRuns();
}

export async function readSegment(env: Env, key: string): Promise<Row[]> {
  const hit = cache.get(key);
  if (hit) return hit;
  const object = await env.ARCHIVE.get(key);
  // An indexed segment that is gone is a broken archive, never "not found".
  if (!object) throw new Error(`archive segment missing: ${key}`);
  const rows = segmentRows(await gunzipJson<Segment>(object.body));
  cache.set(key, rows);
  if (cache.size > CACHE_SEGMENTS) cache.delete(cache.keys().next().value as string);
  return rows;
}

/**
 * Which of `references` an archived row of `kind` carries as its externalReference (unique forever
 * per kind: docs/storage-schema.md, "externalReference filter"). The registry's hits (one call per
 * shard) are confirmed in their segments, so neither a 47-bit collision nor a reference equal to
 * another archived id (a client's "ABC1234" and some Cash-Out's internalCode) refuses a fresh one: a
 * confirmed reference costs one R2 read more, on the way to its 409. The first generation's hits
 * count as they are (its index is small and no longer grows).
 */
export async function referencesArchived(
  ledger: LedgerContext,
  kind: string,
  references: string[],
): Promise<Set<string>> {
  const { legacy, segments } = await archivedSegments(ledger, kind, references);
  const used = new Set(legacy);
  await Promise.all(
    [...segments].map(async ([reference, held]) => {
      for (const segment of held)
        if ((await readSegment(ledger.env, segment.key)).some((row) => row.externalReference === reference)) {
          used.add(reference);
          return;
        }
    }),
  );
  return used;
}

export interface Found<R> {
  row: R;
  /** The segment it was read from, and its key; undefined when hot. */
  segment?: number;
  key?: string;
}

/** The row of `source` that `id` names, hot or archived: best level first, then the newest. */
export async function findAnywhere<R extends Row>(
  ledger: LedgerContext,
  source: ArchiveSource,
  hot: R | undefined,
  id: string,
): Promise<Found<R> | undefined> {
  let best: Found<R> | undefined = hot ? { row: hot } : undefined;
  let bestLevel = hot ? matchLevel(hot, id) : undefined;
  if (bestLevel === 0) return best;
  for (const segment of await segmentsFor(ledger, id, source.kind)) {
    const stale = staleSeqs(ledger.storage.sql, segment.id);
    for (const row of (await readSegment(ledger.env, segment.key)) as R[]) {
      const level = matchLevel(row, id);
      if (level === undefined || stale.has(row.seq as number)) continue;
      if (
        bestLevel === undefined ||
        level < bestLevel ||
        (level === bestLevel && best && (row.seq as number) > (best.row.seq as number))
      ) {
        best = { row, segment: segment.id, key: segment.key };
        bestLevel = level;
      }
    }
  }
  return best;
}

export async function findCashInAnywhere(ledger: LedgerContext, id: string): Promise<CashInRow | undefined> {
  return (await findAnywhere(ledger, cashInSource, findCashIn(ledger.db, id), id))?.row;
}

/**
 * Brings an archived row back hot (same seq, same row) before a change: a refund or a bank return
 * (MED, up to 90 days) of a Cash-In archived after 35 days. Chosen over keeping every PAID Cash-In
 * hot for 90 days because that would keep most of the hot footprint for 3 months. Its archived copy
 * turns stale (lists and lookups skip it) and leaves the archived totals, in the same write as the
 * insert; once closed it is archived again in a newer segment. Returns whether a row came back.
 */
export async function rehydrate(
  ledger: LedgerContext,
  source: ArchiveSource,
  hot: (id: string) => Row | undefined,
  id: string,
): Promise<boolean> {
  const found = await findAnywhere(ledger, source, hot(id), id);
  if (!found || found.segment === undefined) return false;
  const { row, segment } = found;
  const seq = row.seq as number;
  const back = ledger.storage.transactionSync(() => {
    // Another request may have brought it back during the segment read.
    if (isHot(ledger.db, source, seq)) return false;
    insertRow(ledger.db, source, row);
    markStale(ledger.storage.sql, segment, seq);
    if (source.counted)
      addDayTotals(
        ledger.storage.sql,
        source.kind,
        utcDay(source.timeOf(row)),
        totalsOf([source.counted(row)]),
        -1,
      );
    return true;
  });
  if (back) await unregisterStaleCopy(ledger, source, row, segment, found.key as string);
  return back;
}

/**
 * A rehydrated row's archived copy is stale for good (every read skips it), so the registry pairs that
 * lead to it go: once archived again, a GET reads the new segment alone (the registry, its run if
 * folded, the segment: ≤ 3 reads). A pair stays when another row of that segment has an id of the
 * same hash, which it still finds. A failure only costs later GETs a read, as before: logged.
 */
async function unregisterStaleCopy(
  ledger: LedgerContext,
  source: ArchiveSource,
  row: Row,
  segment: number,
  key: string,
): Promise<void> {
  try {
    const others = new Set(
      (await readSegment(ledger.env, key))
        .filter((r) => r.seq !== row.seq)
        .flatMap((r) => source.ids(r).map((id) => idHash(id))),
    );
    const ids = source.ids(row).filter((id) => !others.has(idHash(id)));
    await unregisterIds(ledger, [[segment, ids]]);
  } catch (error) {
    log('warn', 'registry pairs of a rehydrated row were kept', {
      clientId: ledger.profile.clientId,
      segment,
      ...errorFields(error),
    });
  }
}

/** Whether an archived entry of the account has this id (a devolution booked once, bank-returns.ts). */
export async function entryArchived(
  ledger: LedgerContext,
  accountNumber: string,
  id: string,
): Promise<boolean> {
  for (const segment of await segmentsFor(ledger, id, `ledger:${accountNumber}`))
    if ((await readSegment(ledger.env, segment.key)).some((row) => row.id === id)) return true;
  return false;
}

export async function findCashOutAnywhere(
  ledger: LedgerContext,
  id: string,
): Promise<CashOutRow | undefined> {
  return (await findAnywhere(ledger, cashOutSource, findCashOut(ledger.db, id), id))?.row;
}

/** The fixed fields of the transaction of that kind with this internalCode, hot or archived (a stored idempotent answer's). */
export async function fixedFieldsByCode(ledger: LedgerContext, kind: FixedKind, internalCode: string) {
  const row = await (kind === 'cash-in' ? findCashInAnywhere : findCashOutAnywhere)(ledger, internalCode);
  return row?.internalCode === internalCode ? fixedFields(kind, row) : undefined;
}

export const rehydrateCashOut = (ledger: LedgerContext, id: string) =>
  rehydrate(ledger, cashOutSource, (x) => findCashOut(ledger.db, x), id);

export const rehydrateCashIn = (ledger: LedgerContext, id: string) =>
  rehydrate(ledger, cashInSource, (x) => findCashIn(ledger.db, x), id);
