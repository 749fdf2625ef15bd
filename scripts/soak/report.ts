/**
 * The soak's figures as text: operations per scenario with their final outcomes, HTTP answers,
 * errors by status and code, each invariant's result (and its first violations), elapsed time.
 */
import type { Tally } from './api';
import type { InvariantResult } from './invariants';
import type { Snapshot, TrafficLog } from './snapshot';

export interface ReportInput {
  title: string;
  log: TrafficLog;
  tally: Tally;
  snapshot?: Snapshot;
  results: InvariantResult[];
  elapsedMs: number;
}

const SHOWN_FAILURES = 10;

function table(header: string[], rows: string[][], right: number[] = []): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (right.includes(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** Final outcomes per scenario, e.g. "COMPLETED 120, CANCELLED/PAYEE_BANK_UNAVAILABLE 7". */
function outcomes(snapshot: Snapshot | undefined): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const tx of snapshot?.transactions ?? []) {
    const key = tx.view ? [tx.view.status, tx.view.failureCode].filter(Boolean).join('/') : 'unread';
    const perScenario = counts.get(tx.scenario) ?? new Map<string, number>();
    perScenario.set(key, (perScenario.get(key) ?? 0) + 1);
    counts.set(tx.scenario, perScenario);
  }
  return new Map(
    [...counts].map(([scenario, m]) => [
      scenario,
      [...m]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
    ]),
  );
}

export function formatReport(r: ReportInput): string {
  const out: string[] = [r.title, ''];
  const finals = outcomes(r.snapshot);
  const ops = [...r.log.ops].sort((a, b) => a[0].localeCompare(b[0]));
  const totalOk = ops.reduce((sum, [, s]) => sum + s.ok, 0);
  const totalFailed = ops.reduce((sum, [, s]) => sum + s.failed, 0);
  out.push(
    ...table(
      ['operation', 'ok', 'failed', 'final outcomes'],
      [
        ...ops.map(([name, s]) => [name, String(s.ok), String(s.failed), finals.get(name) ?? '']),
        ['total', String(totalOk), String(totalFailed), ''],
      ],
      [1, 2],
    ),
    '',
  );

  const statuses = [...r.tally.byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`);
  out.push(`HTTP requests: ${r.tally.requests} (${statuses.join(', ')})`);
  const errors = [...r.tally.errors].sort((a, b) => b[1].count - a[1].count);
  if (errors.length > 0) {
    out.push(
      '',
      ...table(
        ['error (status code)', 'count', 'expected'],
        errors.map(([key, e]) => [key, String(e.count), e.expected ? 'yes' : 'NO']),
        [1],
      ),
    );
  }
  out.push(
    '',
    ...table(
      ['invariant', 'checked', 'result'],
      r.results.map((i) => [
        i.name,
        String(i.checked),
        i.failures.length === 0 ? 'ok' : `FAILED (${i.failures.length})`,
      ]),
      [1],
    ),
  );
  for (const i of r.results) {
    for (const note of i.notes ?? []) out.push(`  note: ${note}`);
    if (i.failures.length === 0) continue;
    out.push('', `${i.name}:`);
    for (const f of i.failures.slice(0, SHOWN_FAILURES)) out.push(`  - ${f}`);
    if (i.failures.length > SHOWN_FAILURES) out.push(`  … and ${i.failures.length - SHOWN_FAILURES} more`);
  }
  const seconds = r.log.trafficMs / 1000;
  const done = totalOk + totalFailed;
  out.push(
    '',
    `Elapsed ${(r.elapsedMs / 1000).toFixed(1)} s (traffic ${seconds.toFixed(1)} s): ` +
      `${done} operations, ${(done / seconds).toFixed(1)} ops/s, ` +
      `${r.snapshot?.transactions.length ?? 0} transactions checked; ` +
      `${r.log.archive.archived} archived to R2 while running (${r.log.archive.calls} archive calls)`,
  );
  return out.join('\n');
}
