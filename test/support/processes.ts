/**
 * Processes for Node-side tests (`npm start`, `npm run serve`, `npm run mock:psp`): started with
 * their output kept, and waited on until the outcome: what the test waits for, the process gone, or
 * a deadline a busy two-core machine does not reach, each failure naming what it waited for, how
 * long, and the process's last output.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../../runtime/local-runtime.mjs';

/**
 * How long a server may take to start. A cold `npm start` (D1 migrations, wrangler's build, workerd)
 * takes about 40 s beside a soak on two cores; this waits eight times that before calling it a hang.
 */
export const START_DEADLINE_MS = 5 * 60_000;
/** A hook that starts a server: the start's deadline, and a minute to fail with its own message. */
export const START_HOOK_MS = START_DEADLINE_MS + 60_000;

export interface Watched {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Its exit code (or null after a signal). */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL if it is still there 30 s later; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Spawns `node <args>` from the repository root, with node_modules/.bin first on the PATH. */
export function spawnNode(args: string[], options: SpawnOptions = {}): Watched {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
    env: {
      ...(options.env ?? process.env),
      PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
    },
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    output: () => output,
    exited,
    async stop() {
      if (gone()) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/**
 * Reads `read()` every `every` ms until it gives a value other than undefined, and returns it. Fails
 * when `ms` pass first, or at once when `watched` (the process serving what is read) exits; a read
 * that throws counts as not yet.
 */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined> | T | undefined,
  options: { ms?: number; every?: number; watched?: Watched; last?: () => unknown } = {},
): Promise<T> {
  const { ms = START_DEADLINE_MS, every = 250, watched } = options;
  const started = Date.now();
  const tail = () =>
    watched ? `\n--- its output (last 3000 characters) ---\n${watched.output().slice(-3000)}` : '';
  for (;;) {
    const value = await Promise.resolve()
      .then(read)
      .catch(() => undefined);
    if (value !== undefined) return value;
    const seconds = Math.round((Date.now() - started) / 1000);
    if (watched && (watched.child.exitCode !== null || watched.child.signalCode !== null)) {
      const how = watched.child.exitCode ?? watched.child.signalCode;
      throw new Error(`waiting for ${what}: the process exited (${how}) after ${seconds} s${tail()}`);
    }
    if (Date.now() - started > ms) {
      const last = options.last ? `; last seen: ${JSON.stringify(options.last())?.slice(0, 500)}` : '';
      throw new Error(`waiting for ${what}: not within ${ms / 1000} s${last}${tail()}`);
    }
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * How long an outcome of a running server may take (a queue's delivery, an alarm's work, the health
 * analyzer's intake) before it is called a hang: seconds on a busy two-core machine, never minutes.
 */
export const OUTCOME_DEADLINE_MS = 120_000;

/**
 * Reads `probe()` until `done` holds for its value, and returns that value; fails like waitFor (at
 * once when `watched`, the process serving what is read, exits).
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  options: { ms?: number; watched?: Watched } = {},
): Promise<T> {
  let last: T | undefined;
  const read = async () => {
    last = await probe();
    return done(last) ? { value: last } : undefined;
  };
  const { ms = OUTCOME_DEADLINE_MS, watched } = options;
  return (await waitFor(what, read, { ms, last: () => last, ...(watched && { watched }) })).value;
}

/** The first match of `pattern` in the process's output, waited for like waitFor. */
export function waitForOutput(watched: Watched, what: string, pattern: RegExp, ms?: number) {
  return waitFor(what, () => pattern.exec(watched.output()) ?? undefined, {
    watched,
    ...(ms !== undefined && { ms }),
  });
}
