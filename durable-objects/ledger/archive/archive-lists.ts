/**
 * A cursor page over hot rows and archived ones, as if nothing had been archived: the hot keyset
 * query's limit + 1 rows are merged by (time, seq) with the rows of the segments the page can reach,
 * opened in the scan order of their start and only while one could still land on the page.
 */
import { planPage } from '../../../src/domain/pagination';
import type { LedgerContext } from '../ledger-context';
import type { KeyedRow, PageInput } from '../reads/keyset';
import { candidates } from './archive-manifest';
import { type SegmentMeta, segmentStart } from './archive-segments';
import type { ArchiveSource } from './archive-sources';
import { staleSeqs } from './archive-stale-store';

type ReadSegment = (key: string) => Promise<Record<string, unknown>[]>;

/**
 * The first limit + 1 rows of the page in scan order, hot and archived together. A row lives in one
 * place (a rehydrated row's old copy is stale); equal seqs (a row archived during the read) count once.
 */
export async function mergeArchived<Row extends Record<string, unknown>, Item = Row>(
  ledger: LedgerContext,
  source: ArchiveSource,
  input: PageInput,
  hot: KeyedRow<Item>[],
  read: ReadSegment,
  keep: (row: Row) => boolean = () => true,
  // How an archived row joins the hot ones (hot list rows arrive rendered as JSON text).
  render: (row: Row) => Item = (row) => row as unknown as Item,
): Promise<KeyedRow<Item>[]> {
  const plan = planPage(input.order, input.position);
  const position = plan.comparison ? input.position : undefined;
  const sign = plan.scan === 'ASC' ? 1 : -1;
  const cmp = (a: { time: number; seq: number }, b: { time: number; seq: number }) =>
    sign * (a.time - b.time || a.seq - b.seq);
  const want = input.limit + 1;
  // Archived rows keep their raw form until the page is cut: only those on it are rendered.
  type Entry = KeyedRow<Item> & { raw?: Row };
  const done = (entries: Entry[]): KeyedRow<Item>[] =>
    entries.map((e) => (e.raw ? { row: render(e.raw), time: e.time, seq: e.seq } : e));
  let rows: Entry[] = hot;
  let after: SegmentMeta | undefined;
  for (;;) {
    const full = rows[want - 1];
    const chunk = await candidates(
      ledger,
      source.kind,
      plan.scan,
      input.from,
      input.to,
      position,
      after,
      full,
    );
    for (const segment of chunk) {
      const last = rows[want - 1];
      if (last && cmp(last, segmentStart(segment, plan.scan)) < 0) return done(rows);
      const stale = staleSeqs(ledger.storage.sql, segment.id);
      const found: Entry[] = [];
      for (const row of (await read(segment.key)) as Row[]) {
        const key = { time: source.timeOf(row), seq: row.seq as number };
        if (key.time < input.from || key.time > input.to || stale.has(key.seq) || !keep(row)) continue;
        if (position && cmp(key, position) <= 0) continue;
        found.push({ row: undefined as Item, raw: row, ...key });
      }
      const seen = new Set(rows.map((r) => r.seq));
      rows = [...rows, ...found.filter((r) => !seen.has(r.seq))].sort(cmp).slice(0, want);
    }
    if (chunk.length === 0) return done(rows);
    after = chunk.at(-1);
  }
}
