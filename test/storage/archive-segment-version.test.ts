/**
 * R2 archive segments carry a format version, as the analyzer snapshot does: the versions this
 * code knows are read (v1 Cash-In segments of older deployments, v2 today), and any other is refused
 * by name instead of being read as if it were today's (docs/storage-schema.md, "Archive to R2").
 */
import { describe, expect, it } from 'vitest';
import {
  SEGMENT_VERSION,
  type Segment,
  segmentRows,
} from '../../durable-objects/ledger/archive/archive-segments';

describe('archive segment format version', () => {
  const row = { seq: 1, id: 'x' };
  it('reads v1 and the current version', () => {
    expect(SEGMENT_VERSION).toBe(2);
    expect(segmentRows({ v: 1, clientId: 'c', cashIns: [row] })).toEqual([row]);
    expect(segmentRows({ v: 2, clientId: 'c', kind: 'cash-in', rows: [row] })).toEqual([row]);
  });

  it('refuses a version it does not know, and a body without one', () => {
    const newer = { v: 3, clientId: 'c', kind: 'cash-in', rows: [row] } as unknown as Segment;
    expect(() => segmentRows(newer)).toThrow(/format v3 is not one this deployment reads \(1, 2\)/);
    expect(() => segmentRows({ clientId: 'c', rows: [row] } as unknown as Segment)).toThrow(
      /format vundefined/,
    );
  });
});
