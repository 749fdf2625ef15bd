/**
 * Payloads of webhook events that can never be sent again leave 1 h after their delivery ended:
 * DELIVERED (the receiver has it) and UNDELIVERABLE (no URL, or the URL guard refused it). Neither
 * can be retried (the operator retry takes FAILED and GIVEN_UP only) and a redelivered queue message
 * of an ended delivery is acknowledged without reading the payload (claimWebhook). The delivery row
 * itself (what the operator API lists) stays its 7 days (prune.ts). A GIVEN_UP payload stays with
 * its row: it can be retried until then.
 *
 * The payload was most of what a transaction kept for its 7 days (2.1 of 2.7 KB a paid Cash-In,
 * test/node/footprint.test.ts). The rows are walked in the order of webhook_deliveries_finished_idx
 * (status, updated_at, rowid) from a watermark per status: an ended delivery's updated_at never
 * moves back, and one that ends later has a later updated_at than any cutoff already passed, so
 * nothing is skipped and nothing is read twice.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { LedgerDb } from './db';

export const SENT_PAYLOAD_KEEP_MS = 60 * 60 * 1000;
const SENT = ['DELIVERED', 'UNDELIVERABLE'] as const;
type Sent = (typeof SENT)[number];
/** Per status, the last delivery walked: [updated_at, rowid]. */
type Marks = Partial<Record<Sent, [number, number]>>;
const MARKS_KEY = 'prune.sentPayloads';

function readMarks(db: LedgerDb): Marks {
  const row = db.get<{ value: string }>(sql`SELECT value FROM settings WHERE key = ${MARKS_KEY}`);
  return row ? (JSON.parse(row.value) as Marks) : {};
}

/** Ended deliveries of `status` after the watermark whose payload may go at `now`, oldest first. */
export function sentAfter(status: Sent, [at, id]: [number, number], now: number, limit: number): SQL {
  return sql`SELECT seq, updated_at AS at, rowid AS id FROM webhook_deliveries WHERE status = ${status}
      AND (updated_at, rowid) > (${at}, ${id}) AND updated_at < ${now - SENT_PAYLOAD_KEEP_MS}
      ORDER BY updated_at, rowid LIMIT ${limit}`;
}

/** One bounded step: at most `batch` deliveries looked at; how many were. */
export function pruneSentPayloads(db: LedgerDb, now: number, batch: number): number {
  const marks = readMarks(db);
  let seen = 0;
  for (const status of SENT) {
    const limit = batch - seen;
    if (limit <= 0) break;
    const query = sentAfter(status, marks[status] ?? [-1, -1], now, limit);
    const rows = db.all<{ seq: number; at: number; id: number }>(query);
    const last = rows.at(-1);
    if (!last) continue;
    // A subquery, not a bound list: a Durable Object query binds at most 100 values.
    db.run(sql`DELETE FROM outbox WHERE seq IN (SELECT seq FROM (${query}))`);
    seen += rows.length;
    marks[status] = [last.at, last.id];
  }
  if (seen > 0)
    db.run(sql`INSERT INTO settings (key, value) VALUES (${MARKS_KEY}, ${JSON.stringify(marks)})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  return seen;
}

/** When the oldest payload still kept may go, or undefined when none is waiting. */
export function nextSentPayloadAt(db: LedgerDb): number | undefined {
  const marks = readMarks(db);
  const ats = SENT.map(
    (status) =>
      db.get<{ at: number }>(sentAfter(status, marks[status] ?? [-1, -1], Number.MAX_SAFE_INTEGER, 1))?.at,
  ).filter((at): at is number => at !== undefined);
  return ats.length === 0 ? undefined : Math.min(...ats) + SENT_PAYLOAD_KEEP_MS;
}
