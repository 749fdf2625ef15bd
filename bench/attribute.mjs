// The second way to measure the ClientLedger's own CPU (bench/run.mjs): a V8 CPU profile of the
// gateway's isolate, taken through workerd's inspector while the real gateway scenario runs, each
// sample's time (timeDeltas) attributed to the objects or to the worker by the modules on its
// stack. Beside the object twin's number (twin CPU − bare RPC hop), the two should agree. Work the
// profile cannot place (V8's "(program)" and GC) is reported apart, and work outside this isolate
// (the local D1 the sandbox partner writes) is in the twin's number only.

import { gatewayWorker, inspector, isObjectModule, moduleOfLine } from './inspector.mjs';

/** V8's sampling interval, µs. */
const SAMPLING_INTERVAL_US = 100;

/**
 * Profiles the gateway's isolate while `load()` runs (resolving to the operations it completed) and
 * then until `idle()` resolves.
 * A sample is the objects' when any frame of its stack is in a Durable Object's module (its RPC
 * methods, alarms and continuations, and what they call); the rest busy time is the worker's
 * (routing, auth, validation, rendering, the log line, queue consumers). Returns µs per operation.
 */
export async function attributeToObjects({ port, worker, bundleText, load, idle }) {
  const moduleAt = moduleOfLine(bundleText);
  const { send, close } = await inspector(port, worker ?? (await gatewayWorker(port)));
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
  await send('Profiler.start');
  const operations = await load();
  // The work the load left behind (alarms, outbox flushes, health ingestion) is the objects' too,
  // and the CPU the share is applied to is billed until idle: profile until idle as well.
  await idle?.();
  const { result } = await send('Profiler.stop');
  close();
  const profile = result.profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map();
  const inObject = (id) => {
    if (memo.has(id)) return memo.get(id);
    const frame = byId.get(id).callFrame;
    const own = frame.url !== '' && frame.lineNumber >= 0 && isObjectModule(moduleAt(frame.lineNumber));
    const hit = own || (parent.has(id) && inObject(parent.get(id)));
    memo.set(id, hit);
    return hit;
  };
  const totals = { object: 0, worker: 0, unattributed: 0, idle: 0 };
  profile.samples.forEach((id, i) => {
    // A sample stands for the time since the one before, but a gap far beyond the sampling interval
    // is the sampler not running, not CPU: one such delta (58 s once, charged to whatever frame was
    // on the stack) swamped a whole run. Each sample counts for at most ten intervals.
    const delta = Math.min(profile.timeDeltas[i] ?? 0, 10 * SAMPLING_INTERVAL_US);
    const name = byId.get(id).callFrame.functionName;
    if (name === '(idle)') totals.idle += delta;
    else if (inObject(id)) totals.object += delta;
    else if (name === '(program)' || name === '(garbage collector)') totals.unattributed += delta;
    else totals.worker += delta;
  });
  const per = (us) => us / operations;
  return {
    operations,
    objectUs: per(totals.object),
    workerUs: per(totals.worker),
    unattributedUs: per(totals.unattributed),
  };
}
