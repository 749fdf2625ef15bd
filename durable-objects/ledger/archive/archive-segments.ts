/**
 * Segments: their gzip JSON bodies, and the manifest's view of one — its first and last (time, seq),
 * so a list page opens only the segments that can hold its rows (the look-ups are archive-store.ts's).
 * Every segment holds rows of one UTC day (archive.ts), which bounds each look-up to the days the
 * page or summary touches.
 */

type Row = Record<string, unknown> & { seq: number };

/** A segment's body: v1 (Cash-Ins only) is still read. */
export type Segment =
  | { v: 2; clientId: string; kind: string; rows: Row[] }
  | { v: 1; clientId: string; cashIns: Row[] };

export const segmentRows = (s: Segment): Row[] => (s.v === 1 ? s.cashIns : s.rows);

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
