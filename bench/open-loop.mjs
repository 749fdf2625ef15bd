// Open-loop latency (bench/run.mjs): requests leave on a fixed schedule, one every 1/rate s, whether
// or not earlier ones were answered, and each latency is measured from the moment its request was
// due (wrk2's rule). A closed loop (autocannon's connections, and also its `overallRate`, which lets
// each connection send its per-second quota back to back and then wait for the next second) sends
// less while the server is slow, so the slow moments are under-sampled: coordinated omission. Here
// a stall shows up in every request that was due during it.
import { Pool } from 'undici';

/** Percentile `q` (0..1) of sorted values: the smallest value at or above that share. */
const percentile = (sorted, q) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/**
 * Runs `scenario`'s request (its first request definition, with its setupRequest) at `rate` per
 * second for `seconds` against `origin`. Resolves to {rate, achievedRate, sent, ok, failed, p50,
 * p99, p999} (latencies in ms, from each request's due time to its response's end).
 */
export async function openLoop(origin, scenario, rate, seconds) {
  const template = scenario.requests[0];
  // Enough connections that a request never waits for one: 300 ms of arrivals, at least 64.
  const pool = new Pool(origin, { connections: Math.max(64, Math.ceil(rate * 0.3)), pipelining: 1 });
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const latencies = [];
  let ok = 0;
  let failed = 0;
  const inFlight = new Set();
  const started = performance.now();
  const send = (due) => {
    const base = { method: template.method, path: template.path, headers: template.headers };
    const req = template.setupRequest ? template.setupRequest({ ...base }) : base;
    const done = pool
      .request({ method: req.method, path: req.path, headers: req.headers, body: req.body })
      .then(async (res) => {
        await res.body.dump();
        latencies.push(performance.now() - due);
        if (res.statusCode >= 200 && res.statusCode < 300) ok++;
        else failed++;
      })
      .catch(() => {
        latencies.push(performance.now() - due);
        failed++;
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  let next = 0;
  while (next < total) {
    const now = performance.now();
    // Everything due by now leaves now, each timed from its own due time.
    while (next < total && started + next * interval <= now) send(started + interval * next++);
    const wait = started + next * interval - performance.now();
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(wait, 5))));
  }
  const sentFor = (performance.now() - started) / 1000;
  await Promise.all([...inFlight]);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    rate: Math.round(rate),
    achievedRate: Math.round(total / sentFor),
    sent: total,
    ok,
    failed,
    p50: round(percentile(latencies, 0.5)),
    p99: round(percentile(latencies, 0.99)),
    p999: round(percentile(latencies, 0.999)),
  };
}
