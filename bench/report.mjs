// The report of `npm run bench` (bench/run.mjs): each scenario's share of its floor and of its
// empty-client twin, checked against the throughput targets of docs/benchmark.md, and the Markdown table
// printed.

/**
 * The throughput targets (docs/benchmark.md): req/s as a share of the matching bare Durable Object floor, in
 * the same run.
 */
const FLOOR_OF = {
  'cash-in': 'floor-write',
  'cash-out': 'floor-write',
  'get-by-id': 'floor',
  list: 'floor',
  health: 'floor',
  'cash-in@history': 'floor-write',
  'cash-out@history': 'floor-write',
  'get-by-id@history': 'floor',
  'list@history': 'floor',
};
const TARGETS = { 'get-by-id': 0.75, list: 0.4, health: 0.75, 'cash-in': 0.25, 'cash-out': 0.2 };
/** A `@history` twin's target: 85 % of its empty-client scenario's req/s in this run. */
const HISTORY_TARGET = 0.85;
/** The references themselves have no latency target. */
const REFERENCES = ['ceiling', 'ceiling-log', 'floor-rpc', 'floor', 'floor-write'];
const baseOf = (key) => (key.endsWith('@history') ? key.slice(0, -'@history'.length) : undefined);

/**
 * The table's lines for `results` (one per scenario, in run order). Sets `floorShare` and
 * `historyShare` on each result that has one, so results.json carries them too.
 */
export function reportLines(results) {
  const rpsOf = (key) => results.find((r) => r.key === key && !r.skip)?.rps;
  const ceiling = rpsOf('ceiling');
  const rows = results.map((r) => {
    if (r.skip) return [r.name, '—', '—', '—', '—', '—', '—', '—', r.skip];
    const ratio = ceiling ? r.rps / ceiling : undefined;
    const floor = FLOOR_OF[r.key] && rpsOf(FLOOR_OF[r.key]);
    const share = floor ? r.rps / floor : undefined;
    r.floorShare = share;
    const notes = [];
    if (TARGETS[r.key] !== undefined && share !== undefined) {
      notes.push(
        `≥ ${TARGETS[r.key] * 100} % of ${FLOOR_OF[r.key]} ${share >= TARGETS[r.key] ? 'met' : 'MISSED'}`,
      );
    }
    const base = baseOf(r.key);
    if (base && rpsOf(base)) {
      r.historyShare = r.rps / rpsOf(base);
      notes.push(
        `${(r.historyShare * 100).toFixed(1)} % of ${base} (≥ 85 % ${r.historyShare >= HISTORY_TARGET ? 'met' : 'MISSED'})`,
      );
    }
    if (!REFERENCES.includes(r.key)) notes.push(`p99 < 50 ms ${r.p99 < 50 ? 'met' : 'MISSED'}`);
    if (r.full) {
      notes.push(
        // autocannon does not count the answers in flight when it stops (up to 2 × connections).
        `${r.full.completed} COMPLETED (${r.full.accepted} 202s counted), ${r.full.other} other; ` +
          `${Math.round(r.full.cpuUs)} µs/req until idle`,
      );
    }
    if ((r.failed > 0 && r.key !== 'get-by-id-nodo') || r.errors > 0) {
      notes.push(`${r.failed} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`);
    }
    return [
      r.name,
      String(Math.round(r.rps)),
      ratio === undefined ? '—' : `${(ratio * 100).toFixed(1)} %`,
      share === undefined ? '—' : `${(share * 100).toFixed(1)} %`,
      `${r.p50} ms`,
      `${r.p99} ms`,
      Number.isNaN(r.workerdCpuUs) ? '—' : `${Math.round(r.workerdCpuUs)} µs`,
      String(r.ok),
      notes.join('; '),
    ];
  });
  // CPU/req: workerd CPU time per request (worker + Durable Objects + SQLite + HTTP), all threads.
  const header = ['scenario', 'req/s', 'of ceiling', 'of floor', 'p50', 'p99', 'CPU/req', '2xx', 'notes'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
