// workerd's V8 inspector as the bench's profilers use it (bench/attribute.mjs, breakdown.mjs,
// profile.mjs, open-trace.mjs): the gateway's isolate, a connection to it, and which module of the
// bundle a profile frame's line belongs to.

/**
 * The gateway's isolate as the inspector names it: `core:user:<Worker name>`, the name wrangler.toml
 * gives the environment served (connectpsp-staging by default, connectpsp in production).
 */
export async function gatewayWorker(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const gateway = targets.find((t) => /^core:user:connectpsp(-|$)/.test(t.id));
  if (!gateway) throw new Error(`no gateway isolate on the inspector at ${port}`);
  return gateway.id.slice('core:user:'.length);
}

/** Opens the inspector of `worker` on `port`; resolves to a `send(method, params)` and `close()`. */
export async function inspector(port, worker) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/core:user:${worker}`);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let nextId = 0;
  const pending = new Map();
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id !== undefined) pending.get(message.id)?.(message);
  };
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/**
 * Where each line of the bundle came from: esbuild writes `// <path>` before each module's code.
 * Returns line (0-based) → module path.
 */
export function moduleOfLine(bundleText) {
  const starts = [];
  bundleText.split('\n').forEach((line, i) => {
    const m = /^\/\/ ((?:src|durable-objects|node_modules)\/\S+\.(?:ts|mjs|js))$/.exec(line);
    if (m) starts.push([i, m[1]]);
  });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid][0] <= line) {
        found = starts[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** Object code: the Durable Objects' modules, not the stubs the worker reaches them through. */
export const isObjectModule = (path) =>
  path?.startsWith('durable-objects/') && !/\/(stubs|health-stub)\.ts$/.test(path);
