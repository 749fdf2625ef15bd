// The report of `npm run bench` (bench/run.mjs): each scenario's share of its floor and of its
// empty-client twin, the ClientLedger's own CPU per operation (from the object twin), open-loop
// latency, every target printed met or missed, and the Markdown tables.

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
  'cash-out-batch': 'floor-write',
  'cash-out-batch@history': 'floor-write',
  refund: 'floor-write',
  'get-by-id@history': 'floor',
  'list@history': 'floor',
};
const TARGETS = { 'get-by-id': 0.75, list: 0.4, health: 0.75, 'cash-in': 0.25, 'cash-out': 0.2 };
/** A `@history` twin's target: 85 % of its empty-client scenario's req/s in this run. */
const HISTORY_TARGET = 0.85;
/** The references themselves have no latency target. */
const REFERENCES = ['ceiling', 'ceiling-log', 'floor-rpc', 'floor', 'floor-write'];
export const REFERENCE_KEYS = new Set(REFERENCES);

/**
 * The object twin (runtime/reference-worker.mjs, /ledger/<op>) of each write scenario. Cash-In with
 * or without the QR PNG is the same RPC: the image is drawn by the worker from the answer.
 */
const OBJECT_TWIN = {
  'cash-in': 'object:cash-in',
  'cash-in-noqr': 'object:cash-in',
  'cash-out': 'object:cash-out',
  'cash-out-batch': 'object:cash-out-batch',
  refund: 'object:refund',
};

/** Per-client ceilings from the object's own cost (1 s ÷ object CPU per operation or item). */
const CEILINGS = { 'cash-in': 2000, 'cash-out': 1500, 'cash-out-batch': 8000 };
/** Open-loop latency targets at half the measured maximum, in ms. */
const OPEN_P99 = 50;
const OPEN_P999 = 150;

/** CPU per request until idle when measured so (work left behind included), else while loaded. */
const cpuPerRequest = (r) => r.full?.cpuUs ?? r.workerdCpuUs;

/**
 * Sets `objectCpuUs` (per operation; per item for a batch) and `requestCpuUs` (the whole request's
 * CPU until idle, per operation or item) on each write scenario that has an object twin: the
 * twin's CPU per call minus the bare RPC hop's (floor-rpc), the rest being the object's own work.
 */
function objectCosts(results) {
  const byKey = new Map(results.filter((r) => !r.skip).map((r) => [r.key, r]));
  const hop = byKey.get('floor-rpc')?.workerdCpuUs;
  for (const [key, twinKey] of Object.entries(OBJECT_TWIN)) {
    const [r, twin] = [byKey.get(key), byKey.get(twinKey)];
    if (!r || !twin || hop === undefined) continue;
    r.objectCpuUs = (cpuPerRequest(twin) - hop) / (twin.items ?? 1);
    r.requestCpuUs = cpuPerRequest(r) / (r.items ?? 1);
    r.ceilingPerSecond = 1e6 / r.objectCpuUs;
  }
}

const ok = (met) => (met ? 'met' : 'MISSED');

/** Every target of the run, one line each, `met` or `MISSED`. Call after reportLines. */
export function targetLines(results, attribution) {
  objectCosts(results);
  const get = (key) => results.find((r) => r.key === key && !r.skip);
  const lines = ['Targets (ratios within this run):'];
  const profiled = attribution && get(attribution.scenario);
  if (profiled?.objectCpuUs !== undefined) {
    // The profile's object share of attributed time, applied to the scenario's measured CPU.
    attribution.objectCpuUs = attribution.share * profiled.requestCpuUs;
    const gap = attribution.objectCpuUs / profiled.objectCpuUs - 1;
    lines.push(
      `- object CPU of ${attribution.scenario}, twin ${Math.round(profiled.objectCpuUs)} µs vs profile ${Math.round(attribution.objectCpuUs)} µs (${(attribution.share * 100).toFixed(0)} % of ${Math.round(profiled.requestCpuUs)} µs): ${(gap * 100).toFixed(1)} %, within 15 % ${ok(Math.abs(gap) <= 0.15)}`,
    );
  }
  const [out, batch] = [get('cash-out'), get('cash-out-batch')];
  if (out && batch) {
    const items = batch.rps * batch.items;
    lines.push(
      `- cash-out-batch items/s ${Math.round(items)} ≥ 5 × cash-out req/s (${Math.round(5 * out.rps)}): ${ok(items >= 5 * out.rps)}`,
    );
    if (batch.objectCpuUs !== undefined && out.objectCpuUs !== undefined) {
      const share = batch.objectCpuUs / out.objectCpuUs;
      lines.push(
        `- cash-out-batch object CPU per item ${Math.round(batch.objectCpuUs)} µs ≤ 25 % of a Cash-Out's ${Math.round(out.objectCpuUs)} µs: ${(share * 100).toFixed(1)} % ${ok(share <= 0.25)}`,
      );
    }
  }
  for (const [key, floor] of Object.entries(CEILINGS)) {
    const r = get(key);
    if (r?.ceilingPerSecond === undefined) continue;
    lines.push(
      `- per-client ceiling ${key} ${Math.round(r.ceilingPerSecond)}/s ≥ ${floor}/s: ${ok(r.ceilingPerSecond >= floor)}`,
    );
  }
  for (const r of results) {
    if (!r.openLoop) continue;
    const o = r.openLoop;
    if (REFERENCE_KEYS.has(r.key)) {
      lines.push(
        `- open loop ${r.key} at ${o.rate}/s, the runtime's own tail (reference, no target): p50 ${o.p50}, p99 ${o.p99}, p99.9 ${o.p999} ms${machineNote(o)}`,
      );
      continue;
    }
    lines.push(
      `- open loop ${r.key} at ${o.rate}/s (achieved ${o.achievedRate}/s): p99 ${o.p99} ms < ${OPEN_P99} ${ok(o.p99 < OPEN_P99)}, p99.9 ${o.p999} ms < ${OPEN_P999} ${ok(o.p999 < OPEN_P999)}${o.failed > 0 ? ` (${o.failed} failed)` : ''}${machineNote(o)}`,
    );
  }
  for (const r of results) {
    if (r.historyShare === undefined) continue;
    lines.push(
      `- ${r.key} ${(r.historyShare * 100).toFixed(1)} % of its empty-client twin ≥ 85 %: ${ok(r.historyShare >= HISTORY_TARGET)}`,
    );
  }
  lines.push('', ...objectTable(results));
  return lines;
}

/**
 * Who held an open-loop run up besides the gateway (bench/open-loop.mjs): the share of the run
 * workerd spent runnable but waiting for a core (other processes on the machine had it), and how late
 * the generator sent. Without a busy neighbour both stay near zero; the stalls of
 * docs/benchmark-history.md ("Open-loop latency: the stalls") came with workerd waiting a third of the time.
 */
function machineNote(o) {
  if (!o.machine) return '';
  const m = o.machine;
  const note = `; workerd ran ${Math.round(m.workerdRun * 100)} % and waited for a core ${Math.round(m.workerdWait * 100)} % of the time, generator late by ≤ ${o.sendLag.max} ms`;
  const priority = o.priority ? `, the bench at nice ${o.priority}` : '';
  return m.workerdWait >= MACHINE_BOUND ? `${note}${priority} (machine-bound)` : `${note}${priority}`;
}
/** workerd waiting runnable this share of the run or more: the machine, not the gateway, set the tail. */
const MACHINE_BOUND = 0.1;

/** The per-client ceilings table: the object's own CPU beside the whole request's. */
function objectTable(results) {
  const rows = results
    .filter((r) => r.objectCpuUs !== undefined)
    .map((r) => [
      r.key + (r.items > 1 ? ` (per item of ${r.items})` : ''),
      `${Math.round(r.requestCpuUs)} µs`,
      `${Math.round(r.objectCpuUs)} µs`,
      `${((r.objectCpuUs / r.requestCpuUs) * 100).toFixed(0)} %`,
      `${Math.round(r.ceilingPerSecond)}/s`,
    ]);
  const header = ['operation', 'whole request CPU', 'ClientLedger CPU', 'object share', 'per-client ceiling'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
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
    if (r.openLoop)
      notes.push(
        `open loop ${r.openLoop.rate}/s: p50 ${r.openLoop.p50}, p99 ${r.openLoop.p99}, p99.9 ${r.openLoop.p999} ms`,
      );
    if (r.items > 1) notes.push(`${Math.round(r.rps * r.items)} items/s`);
    if (r.full && r.full.completed + r.full.other > 0) {
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
