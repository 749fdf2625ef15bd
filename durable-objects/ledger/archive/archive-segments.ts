/**
 * Segments: their gzip JSON bodies, and the manifest's view of one — its first and last (time, seq),
 * so a list page opens only the segments that can hold its rows (the look-ups are archive-store.ts's).
 * Every segment holds rows of one UTC day (archive.ts), which bounds each look-up to the days the
 * page or summary touches.
 */

type Row = Record<string, unknown> & { seq: number };

/** The format archive.ts writes; docs/storage-schema.md ("Archive to R2") describes each version. */
export const SEGMENT_VERSION = 2;

/** A segment's body: v1 (Cash-Ins only) is still read. */
export type Segment =
  | { v: typeof SEGMENT_VERSION; clientId: string; kind: string; rows: Row[] }
  | { v: 1; clientId: string; cashIns: Row[] };

/**
 * The rows of a segment whose format this code knows. Any other version (a segment written by a
 * newer deployment, read after a rollback) is refused loudly: read as rows it could drop money.
 */
export function segmentRows(s: Segment): Row[] {
  if (s.v === 1) return s.cashIns;
  if (s.v === SEGMENT_VERSION) return s.rows;
  throw new Error(
    `archive segment format v${String((s as { v?: unknown }).v)} is not one this deployment reads (1, ${SEGMENT_VERSION})`,
  );
}

export async function gzipJson(value: unknown): Promise<ArrayBuffer> {
  const stream = new Blob([JSON.stringify(value)]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

export async function gunzipJson<T>(body: ReadableStream): Promise<T> {
  return (await new Response(body.pipeThrough(new DecompressionStream('gzip'))).json()) as T;
}

export const DAY_MS = 86_400_000;
export const dayStart = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A DONE segment in the manifest: where its rows start and end in list order. */
export interface SegmentMeta {
  id: number;
  key: string;
  firstTime: number;
  firstSeq: number;
  lastTime: number;
  lastSeq: number;
}

/** Where a segment starts in a scan: its first row ascending, its last one descending. */
export function segmentStart(s: SegmentMeta, scan: 'ASC' | 'DESC'): { time: number; seq: number } {
  return scan === 'ASC' ? { time: s.firstTime, seq: s.firstSeq } : { time: s.lastTime, seq: s.lastSeq };
}
