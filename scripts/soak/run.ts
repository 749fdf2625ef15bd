/**
 * `npm run soak -- --minutes N [--clients K] [--concurrency C] [--seed S] [--no-faults]
 * [--no-archive] [--no-bank] [--psp-port P] [--state tmpfs|disk]`: starts the production-like local
 * runtime in this process (runtime/local-runtime.mjs: the deploy bundle in workerd with D1, Durable
 * Objects + alarms, queues, cron) on fresh state, drives mixed traffic from several clients for N
 * minutes with partner faults for part of it, checks every invariant
 * (scripts/soak/invariants.ts) and prints the figures. Unless --no-bank, a mock API Pix PSP
 * (test/support/mock-psp-server.ts, on --psp-port, default any free port) is declared as a real
 * partner beside the sandbox ones, with its own clients, outages and lost callbacks
 * (scripts/soak/bank-traffic.ts), and the ledger is compared with its books at the end. Exit code 1 when an invariant fails.
 * The worker's own logs go to .soak/worker.log, the figures also to .soak/report.txt.
 */
import {
  appendFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startLocalRuntime } from '../../runtime/local-runtime.mjs';
import { FAKE_PSP_ISPB } from '../../test/support/fake-psp-env';
import { writeDevVars } from '../dev-vars.mjs';
import { exitWithUsageIfAsked } from '../usage.mjs';
import { d1PartnerBooks } from './partner-books';
import { runSoak } from './soak';

exitWithUsageIfAsked(`
Usage: npm run soak -- --minutes N [--clients K] [--concurrency C] [--seed S] [--no-faults] [--no-archive] [--state tmpfs|disk]

Starts the production-like runtime on fresh state, drives mixed traffic with partner faults for N
minutes, checks every invariant (ledger = fake PSP books) and prints the figures; exit 1 when an
invariant fails. Worker log: .soak/worker.log; figures: .soak/report.txt.
`);

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    clients: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '12' },
    seed: { type: 'string' },
    'no-faults': { type: 'boolean', default: false },
    // Archive every client's closed history every 5 s while the traffic runs (docs/operating.md, Archive to
    // R2), unless asked not to.
    'no-archive': { type: 'boolean', default: false },
    // A mock API Pix PSP as a real partner beside the sandbox ones, unless asked not to.
    'no-bank': { type: 'boolean', default: false },
    'psp-port': { type: 'string', default: '0' },
    // tmpfs (default where there is one) or disk: the soak must pass on both.
    state: { type: 'string', default: 'tmpfs' },
  },
});
const minutes = Number(values.minutes);
const clients = Number(values.clients);
const concurrency = Number(values.concurrency);
if (!(minutes > 0) || !(clients >= 1) || !(concurrency >= 1) || !['tmpfs', 'disk'].includes(values.state)) {
  console.error(
    'usage: npm run soak -- --minutes N [--clients K] [--concurrency C] [--seed S] [--no-faults] ' +
      '[--no-archive] [--no-bank] [--psp-port P] [--state tmpfs|disk]',
  );
  process.exit(2);
}

// Fresh state on tmpfs when there is one (SQLite fsyncs every commit; see bench/run.mjs), or on
// disk under .soak/ when asked: fsync latency is what changes timing there.
const onTmpfs = values.state === 'tmpfs' && existsSync('/dev/shm') && process.platform === 'linux';
const stateParent = onTmpfs ? '/dev/shm' : values.state === 'disk' ? path.join(ROOT, '.soak') : tmpdir();
mkdirSync(stateParent, { recursive: true });
const stateDir = mkdtempSync(path.join(stateParent, 'connectpsp-soak-'));
const outDir = path.join(ROOT, '.soak');
mkdirSync(outDir, { recursive: true });
const logFile = createWriteStream(path.join(outDir, 'worker.log'));
const say = (line: string) => console.error(`[soak] ${line}`);
const workerLog = { lines: 0, warnings: 0, errors: [] as string[] };

/** test/support/mock-psp-server.ts, loaded at run time: it is typed against the Workers test setup. */
interface MockPspModule {
  startMockPsp(port: number): Promise<{
    url: string;
    partnerVars: Record<string, string>;
    close(): Promise<void>;
  }>;
}
const MOCK_PSP_MODULE = '../../test/support/mock-psp-server.ts';
const psp = values['no-bank']
  ? undefined
  : await ((await import(MOCK_PSP_MODULE)) as MockPspModule).startMockPsp(Number(values['psp-port']));
// Secrets for this run only: the developer's .dev.vars is never read or written.
const varsFile = writeDevVars(path.join(stateDir, 'soak.vars'));
if (psp) {
  say(`mock PSP (API Pix + Pix Send) on ${psp.url}, declared as partner ${FAKE_PSP_ISPB}`);
  const lines = Object.entries(psp.partnerVars).map(([k, v]) => `${k}='${v}'`);
  appendFileSync(varsFile, `${lines.join('\n')}\n`);
}
say(`starting the runtime (bundle + workerd), state in ${stateDir}`);
const runtime = await startLocalRuntime({
  port: 0,
  persistTo: stateDir,
  // Its own bundle directory: `npm run serve` / `npm run bench` may be using .wrangler/build.
  buildDir: path.join(stateDir, 'build'),
  varsFile,
  onLog: ({ level, message }) => {
    logFile.write(`${message}\n`);
    workerLog.lines += 1;
    if (level === 'warn') workerLog.warnings += 1;
    if (level === 'error') workerLog.errors.push(message);
  },
  log: (line) => say(line),
});
let exitCode = 1;
const cleanUp = async () => {
  await runtime.dispose().catch(() => undefined);
  await psp?.close().catch(() => undefined);
  logFile.end();
  rmSync(stateDir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}
try {
  const result = await runSoak({
    fetch: (request) => fetch(request),
    baseUrl: runtime.url,
    adminToken: 'dev-admin-token',
    durationMs: minutes * 60_000,
    clients,
    concurrency,
    ...(values.seed !== undefined && { seed: Number(values.seed) }),
    faults: !values['no-faults'],
    archiveEveryMs: values['no-archive'] ? 0 : 5_000,
    readPartnerBooks: d1PartnerBooks(await runtime.miniflare.getD1Database('DB')),
    ...(psp && {
      bank: {
        ispb: FAKE_PSP_ISPB,
        webhookSecret: psp.partnerVars[`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`] as string,
        control: async (controlPath: string, body?: unknown) => {
          const res = await fetch(`${psp.url}/__control/${controlPath}`, {
            method: body === undefined ? 'GET' : 'POST',
            ...(body !== undefined && { body: JSON.stringify(body) }),
          });
          if (!res.ok) throw new Error(`mock PSP control ${controlPath}: ${res.status}`);
          return res.json();
        },
      },
    }),
    workerLog: () => workerLog,
    progress: say,
  });
  console.log(`\n${result.report}`);
  writeFileSync(path.join(outDir, 'report.txt'), `${result.report}\n`);
  exitCode = result.ok ? 0 : 1;
} catch (error) {
  console.error(error);
} finally {
  await cleanUp();
}
process.exit(exitCode);
