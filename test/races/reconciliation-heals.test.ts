/**
 * Two runs of one day's reconciliation that overlap (a cron run and an operator's rerun, or two cron
 * isolates) each store their report; every heal either made must stay in the day's report.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { findReport, saveReport } from '../../src/db/reconciliation-reports';
import type { ReconciliationReport } from '../../src/domain/reconciliation-matching';

const ISPB = '99999901';

function reportOf(date: string, e2e: string): ReconciliationReport {
  return {
    date,
    ispb: ISPB,
    status: 'PENDING',
    checkedAt: new Date().toISOString(),
    counts: { healed: 1 },
    healed: [
      {
        kind: 'MISSING_HERE',
        subject: 'RECEIVED',
        endToEndId: e2e,
        outcome: ['paid'],
        healedAt: new Date().toISOString(),
      },
    ],
    breaks: [],
    pendingReason: 'partner unreachable',
  };
}

describe('the day report of overlapping reconciliation runs', () => {
  it('keeps the heals of both runs, stored at the same time, and of a run before them', async () => {
    const date = '2026-01-07';
    await saveReport(env, reportOf(date, 'E0000000120260107120000000000001'));
    const runs = Array.from({ length: 6 }, (_, i) => reportOf(date, `E00000001202601071200000000001${i}0`));
    const kept = await Promise.all(runs.map((r) => saveReport(env, r)));
    const stored = (await findReport(env, date, ISPB))?.report;
    const e2es = stored?.healed.map((h) => h.endToEndId) ?? [];
    expect(e2es[0]).toBe('E0000000120260107120000000000001');
    expect([...e2es].sort()).toEqual(
      ['E0000000120260107120000000000001', ...runs.map((r) => r.healed[0]?.endToEndId ?? '')].sort(),
    );
    // Each run's answer holds what was stored with it: everything before it, its own heal last.
    for (const [i, k] of kept.entries()) expect(k.healed.at(-1)).toEqual(runs[i]?.healed[0]);
    expect(stored?.healed.find((h) => h.endToEndId === runs[0]?.healed[0]?.endToEndId)).toEqual(
      runs[0]?.healed[0],
    );
  });
});
