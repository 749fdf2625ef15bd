// Open-loop latency (bench/run.mjs): requests leave on a fixed schedule, one every 1/rate s, whether
// or not earlier ones were answered, and each latency is measured from the moment its request was
// due (wrk2's rule). A closed loop (autocannon's connections, and also its `overallRate`, which lets
// each connection send its per-second quota back to back and then wait for the next second) sends
// less while the server is slow, so the slow moments are under-sampled: coordinated omission. Here
// a stall shows up in every request that was due during it.
import { readdirSync, readFileSync } from 'node:fs';
import { Pool } from 'undici';

/**
 * CPU time a process's threads spent running and runnable-but-waiting for a core, in ms, from
 * /proc/<pid>/task/<tid>/schedstat (Linux; zeros elsewhere). On a shared machine the second one is
 * what separates "the gateway was slow" from "the gateway was not given a core": a request that
 * waited while workerd was runnable was held up by the machine.
 */
export function schedOf(pid) {
  let run = 0;
  let wait = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const [r, w] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      run += r;
      wait += w;
    }
  } catch {}
  return { run: run / 1e6, wait: wait / 1e6 };
}

/** Ms some task on the machine waited for a CPU so far (/proc/pressure/cpu), NaN without PSI. */
export function cpuPressure() {
  try {
    return Number(/some .*total=(\d+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))[1]) / 1000;
  } catch {
    return Number.NaN;
  }
}

/** Percentile `q` (0..1) of sorted values: the smallest value at or above that share. */
const percentile = (sorted, q) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/**
 * Runs `scenario`'s request (its first request definition, with its setupRequest) at `rate` per
 * second for `seconds` against `origin`, over a pool warmed with `warmPath` (a cheap GET). Resolves to {rate, achievedRate, sent, ok, failed, p50,
 * p99, p999, sendLag} (latencies in ms, from each request's due time to its response's end;
 * `sendLag`: p99 and max of how late a request left after its due time, the generator's own lag;
 * `machine`: shares of the run's wall time that workerd (`workerdPid`) ran and waited runnable for a
 * core, that this generator waited, and that some task on the machine waited (CPU pressure).
 * With `trace`, also `trace: {startedAt, requests: [[due, lag, latency, status], …]}` (ms; `due`
 * from `startedAt`, an epoch time to line up with the Worker's log).
 */
export async function openLoop(
  origin,
  scenario,
  rate,
  seconds,
  { trace = false, workerdPid, warmPath = '/', lazyPool = false } = {},
) {
  const template = scenario.requests[0];
  // A client's pool, opened before the schedule starts (wrk2 connects first, too): connections for
  // 50 ms of arrivals, at least 32, all warm. Opening them lazily (`lazyPool`, the generator before
  // 2026-11-27 12:00: up to 300 ms of arrivals, opened on demand) made any slow moment worse: each
  // request that found no idle connection opened a new one, and workerd accepted and handshook
  // hundreds of them on the very thread that was behind. A request that finds every connection busy
  // waits in the pool; its latency still counts from its due time, so nothing is omitted.
  const connections = lazyPool ? Math.max(64, Math.ceil(rate * 0.3)) : Math.max(32, Math.ceil(rate * 0.05));
  const pool = new Pool(origin, { connections, pipelining: 1 });
  if (!lazyPool)
    await Promise.all(
      Array.from({ length: connections }, () =>
        pool.request({ method: 'GET', path: warmPath }).then(
          (res) => res.body.dump(),
          () => {},
        ),
      ),
    );
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const latencies = [];
  const lags = [];
  const traced = trace ? [] : undefined;
  let ok = 0;
  let failed = 0;
  const inFlight = new Set();
  const machineAt = () => ({
    at: performance.now(),
    workerd: workerdPid ? schedOf(workerdPid) : { run: Number.NaN, wait: Number.NaN },
    generator: schedOf(process.pid),
    pressure: cpuPressure(),
  });
  const machineBefore = machineAt();
  const startedAt = Date.now();
  const started = performance.now();
  const send = (due) => {
    const base = { method: template.method, path: template.path, headers: template.headers };
    const req = template.setupRequest ? template.setupRequest({ ...base }) : base;
    const lag = performance.now() - due;
    lags.push(lag);
    const finish = (status) => {
      const latency = performance.now() - due;
      latencies.push(latency);
      traced?.push([due - started, lag, latency, status]);
    };
    const done = pool
      .request({ method: req.method, path: req.path, headers: req.headers, body: req.body })
      .then(async (res) => {
        await res.body.dump();
        finish(res.statusCode);
        if (res.statusCode >= 200 && res.statusCode < 300) ok++;
        else failed++;
      })
      .catch(() => {
        finish(0);
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
  const machineAfter = machineAt();
  const share = (f) =>
    Math.round((1000 * (f(machineAfter) - f(machineBefore))) / (machineAfter.at - machineBefore.at)) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    rate: Math.round(rate),
    connections,
    achievedRate: Math.round(total / sentFor),
    sent: total,
    ok,
    failed,
    p50: round(percentile(latencies, 0.5)),
    p99: round(percentile(latencies, 0.99)),
    p999: round(percentile(latencies, 0.999)),
    sendLag: { p99: round(percentile(lags, 0.99)), max: round(lags.at(-1) ?? Number.NaN) },
    machine: {
      workerdRun: share((m) => m.workerd.run),
      workerdWait: share((m) => m.workerd.wait),
      generatorWait: share((m) => m.generator.wait),
      pressure: share((m) => m.pressure),
    },
    ...(traced && { trace: { startedAt, requests: traced.sort((a, b) => a[0] - b[0]) } }),
  };
}

/**
 * A trace's requests per `bucketMs` of due time: [{at (ms from start), n, p50, max, lagMax}], to
 * see when latency rose and whether the generator itself was late.
 */
export function buckets(trace, bucketMs = 100) {
  const out = [];
  for (const [due, lag, latency] of trace.requests) {
    const i = Math.floor(due / bucketMs);
    out[i] ??= { at: i * bucketMs, latencies: [], lagMax: 0 };
    out[i].latencies.push(latency);
    out[i].lagMax = Math.max(out[i].lagMax, lag);
  }
  return out.filter(Boolean).map(({ at, latencies, lagMax }) => {
    latencies.sort((a, b) => a - b);
    return { at, n: latencies.length, p50: percentile(latencies, 0.5), max: latencies.at(-1), lagMax };
  });
}
