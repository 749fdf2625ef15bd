#!/usr/bin/env node
// npm run bench:footprint: a client's object under `--rate` Cash-Ins and half as many Cash-Outs a
// day for `--days` simulated days, on the local runtime (docs/benchmark.md, "Footprint"). Time is
// compressed as test/node/footprint.test.ts moves it: each day's rows are written in the past,
// copies of one real paid Cash-In and COMPLETED Cash-Out through the bench's bulk path
// (POST /__bench/seed-history, the rows' real stored shapes), and each simulated day ends with the
// archive run an operator would trigger (POST /admin/clients/{id}/archive) at the retention's
// cutoff. A companion client beside it takes a `--companion`th of the rate the same way, so the run
// itself separates what a day costs whatever its volume (F) from what each archived transaction
// costs (b): least squares of live bytes over the days, per client, then bytes(day) = F + b × transactions
// through both. Prints the object's live bytes after each day with the runtime's CPU for the day's
// seeding and archive run, the marginal bytes per archived transaction, the fit, the years to 2 GB
// and 10 GB at this rate, the p99 of GET by each id (archived and hot, interleaved, with the machine's
// load), the extra reads per Cash-In create (the reference filter's positives on fresh ones),
// and last the summary line docs/benchmark.md compares from run to run.
import { createHmac, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { startLocalRuntime } from '../runtime/local-runtime.mjs';
import { writeDevVars } from '../scripts/dev-vars.mjs';
import { exitWithUsageIfAsked } from '../scripts/usage.mjs';
import { dailySlope, fixedAndPerTransaction } from './footprint-fit.mjs';

exitWithUsageIfAsked(`Usage: npm run bench:footprint -- [--days N] [--rate N] [--retention-days N] [--samples N] [--probes N]
                                [--companion N] [--warmup N] [--payees N]

  --days N            simulated days (default 30)
  --rate N            Cash-Ins a day; Cash-Outs are half as many (default 1000000)
  --retention-days N  days closed history stays hot before the day's archive run (default 1)
  --samples N         GETs per id kind, archived and hot (default 200)
  --probes N          fresh references asked of the filter (default 100000)
  --companion N       a second client at rate / N a day, for the fit of F and b (default 10; 0: none)
  --warmup N          days after the first archive left out of the fit (default 1)
  --payees N          the payees Cash-Outs go to, in turn (default 99: each paid every day from 198 Cash-Ins a day)

State goes to BENCH_STATE_DIR, else /dev/shm when there is one (as npm run bench).`);

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    rate: { type: 'string', default: '1000000' },
    'retention-days': { type: 'string', default: '1' },
    samples: { type: 'string', default: '200' },
    probes: { type: 'string', default: '100000' },
    companion: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '1' },
    payees: { type: 'string', default: '99' },
  },
});
const int = (name, least = 1) => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < least) throw new Error(`--${name} must be an integer ≥ ${least}`);
  return n;
};
const DAYS = int('days');
const RATE = int('rate');
const RETENTION = int('retention-days');
const SAMPLES = int('samples');
const PROBES = int('probes');
const COMPANION = int('companion', 0);
const WARMUP = int('warmup', 0);
// Pair i pays payee i % PAYEES and only even pairs have a Cash-Out: an odd count reaches every payee.
// Each payee paid every day makes the per-payee-day limit totals a fixed cost per day, the same for
// both clients (docs/benchmark.md, "Footprint": what they cost when every Cash-Out has its own payee).
const PAYEES = int('payees');
const COMPANION_RATE = COMPANION > 0 ? Math.floor(RATE / COMPANION) : 0;
if (COMPANION > 0 && COMPANION_RATE < 2) throw new Error('--rate / --companion must leave at least 2 a day');
const DAY = 86_400_000;
const CHUNK = 20_000;
const GB = 1e9;

// On tmpfs when there is one, as npm run bench: the local disk's sync latency is no part of the object's cost.
const stateRoot =
  process.env.BENCH_STATE_DIR ||
  (existsSync('/dev/shm') && process.platform === 'linux' ? '/dev/shm' : tmpdir());
const work = mkdtempSync(path.join(stateRoot, 'connectpsp-bench-footprint-'));
const varsFile = writeDevVars(path.join(work, 'vars'));
appendFileSync(varsFile, 'BENCH_SEED=on\n');
const runtime = await startLocalRuntime({
  port: 0,
  persistTo: path.join(work, 'state'),
  buildDir: path.join(work, 'build'),
  varsFile,
  cron: false,
  onLog: () => {},
  log: () => {},
});
const ADMIN = { authorization: 'Bearer dev-admin-token' };

/**
 * CPU used so far, in ms: workerd's (this process's descendants, from /proc: the gateway, its objects,
 * the local R2 and D1) and this process's own (the harness: requests, JSON, miniflare's plumbing).
 */
function cpuMs() {
  const children = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  };
  let workerd = 0;
  const pids = children(process.pid);
  while (pids.length > 0) {
    const pid = pids.pop();
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      workerd += (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, 100 ticks a second
    } catch {}
    pids.push(...children(pid));
  }
  const own = process.cpuUsage();
  return { workerd, harness: (own.user + own.system) / 1000 };
}
const since = (a, b = cpuMs()) => ({ workerd: b.workerd - a.workerd, harness: b.harness - a.harness });
const machine = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} on ${availableParallelism()} cores`;

// An archive run at a high rate answers after many minutes: no time-out on the answer's headers or body.
const patient = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

async function api(method, url, { headers = {}, body } = {}) {
  const res = await fetch(`${runtime.url}${url}`, {
    method,
    dispatcher: patient,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function onboard() {
  const { status, body: client } = await api('POST', '/admin/clients', {
    headers: ADMIN,
    body: { name: 'Loja Footprint Ltda' },
  });
  if (status !== 201) throw new Error(`onboarding: ${status} ${JSON.stringify(client)}`);
  await api('PATCH', `/admin/clients/${client.clientId}`, {
    headers: ADMIN,
    body: { limits: { perTransaction: 1_000_000, daily: 1e11, monthly: 1e12, perPayeeDaily: 1_000_000 } },
  });
  const login = await api('POST', '/auth/token', {
    body: { clientId: client.clientId, clientSecret: client.clientSecret },
  });
  const token = login.body.accessToken;
  const auth = { authorization: `Bearer ${token}`, applicationtoken: client.applicationToken };
  const signed = {
    ...auth,
    digitalsignature: createHmac('sha256', client.cryptoToken).update(token).digest('hex'),
  };
  return { client, auth, signed };
}

/** The template pair: one real paid Cash-In and one real COMPLETED Cash-Out. */
async function templatePair() {
  const t = await onboard();
  const account = t.client.accounts.find((a) => a.type === 'TRANSACTIONAL');
  await api('POST', `/sandbox/accounts/${account.number}/deposit`, {
    headers: t.auth,
    body: { amount: 1_000_000 },
  });
  const cashIn = await api('POST', '/cash-in', {
    headers: t.auth,
    body: {
      amount: 150.25,
      externalReference: `template-${randomUUID()}`,
      payer: { name: 'Maria da Silva', document: '12345678909' },
    },
  });
  const paid = await api('POST', `/sandbox/cash-in/${cashIn.body.transactionId}/pay`, {
    headers: t.auth,
    body: {},
  });
  if (paid.body?.status !== 'PAID') throw new Error(`template Cash-In: ${JSON.stringify(paid.body)}`);
  const out = await api('POST', '/cash-out', {
    headers: t.signed,
    body: {
      amount: 10.5,
      externalReference: `template-out-${randomUUID()}`,
      payee: {
        name: 'João Souza',
        document: '12345678909',
        destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: randomUUID() },
      },
    },
  });
  for (let i = 0; ; i++) {
    const got = await api('GET', `/cash-out/${out.body.transactionId}`, { headers: t.auth });
    if (got.body?.status === 'COMPLETED') break;
    if (i > 600) throw new Error(`template Cash-Out: ${JSON.stringify(got.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    clientId: t.client.clientId,
    cashInId: cashIn.body.transactionId,
    cashOutId: out.body.transactionId,
  };
}

const bench = (body) => api('POST', '/__bench/seed-history', { headers: ADMIN, body });

let summary = '';
let disposed = false;
try {
  const template = await templatePair();
  const main = await onboard();
  const clients = [{ name: 'client', rate: RATE, h: main, perDay: [] }];
  if (COMPANION > 0)
    clients.push({ name: 'companion', rate: COMPANION_RATE, h: await onboard(), perDay: [] });
  const clientId = main.client.clientId;
  // Day 0 starts DAYS + 1 UTC days ago, so the last simulated day ends before now.
  const t0 = Math.floor(Date.now() / DAY) * DAY - (DAYS + 1) * DAY;
  const footprint = async (id, probes = 0) => {
    const res = await bench({ clientId: id, footprint: { probes } });
    if (res.status !== 200) throw new Error(`footprint: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const perDay = clients[0].perDay;
  console.log(
    `footprint bench: ${DAYS} days at ${RATE} Cash-Ins and ${RATE / 2} Cash-Outs a day, retention ${RETENTION} d` +
      (COMPANION > 0 ? `; companion client at ${COMPANION_RATE} a day` : '') +
      `; ${PAYEES} payees; state in ${stateRoot}; ${machine()}`,
  );
  const cpuDays = [];
  for (let d = 0; d < DAYS; d++) {
    const started = Date.now();
    const cpu0 = cpuMs();
    for (const c of clients)
      for (let k = 0; k < c.rate; k += CHUNK) {
        const res = await bench({
          templateClientId: template.clientId,
          cashInId: template.cashInId,
          cashOutId: template.cashOutId,
          clientId: c.h.client.clientId,
          offset: d * c.rate + k,
          count: Math.min(CHUNK, c.rate - k),
          from: t0,
          stepMs: DAY / c.rate,
          payees: PAYEES,
          cashOutEvery: 2,
        });
        if (res.status !== 204)
          throw new Error(`seeding day ${d}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    const seededAt = Date.now();
    const cpu1 = cpuMs();
    // The end of day d: what closed RETENTION days before leaves.
    const before = new Date(t0 + (d + 1 - RETENTION) * DAY).toISOString();
    for (const c of clients) {
      const archived = await api('POST', `/admin/clients/${c.h.client.clientId}/archive`, {
        headers: ADMIN,
        body: { before },
      });
      if (archived.status !== 200)
        throw new Error(`archive day ${d}: ${archived.status} ${JSON.stringify(archived.body)}`);
    }
    const archivedAt = Date.now();
    const cpu2 = cpuMs();
    let archivedToday = 0;
    for (const c of clients) {
      const f = await footprint(c.h.client.clientId);
      const written = (d + 1) * c.rate + Math.ceil(((d + 1) * c.rate) / 2);
      const archivedTx = written - f.hotCashIns - f.hotCashOuts;
      archivedToday += archivedTx - (c.perDay.at(-1)?.archivedTx ?? 0);
      c.perDay.push({ day: d + 1, bytes: f.bytes, archivedTx, hot: f.hotCashIns + f.hotCashOuts, f });
    }
    const [seedCpu, archiveCpu] = [since(cpu0, cpu1), since(cpu1, cpu2)];
    const seededTx = clients.reduce((a, c) => a + c.rate * 1.5, 0);
    cpuDays.push({ day: d + 1, seedCpu, archiveCpu, seededTx, archivedTx: archivedToday });
    const { f, hot, archivedTx } = perDay.at(-1);
    console.log(
      `day ${d + 1}: object ${(f.bytes / 1e6).toFixed(1)} MB, hot ${hot} transactions, archived ${archivedTx}, ` +
        `filter ${(f.filter.bytes / 1e6).toFixed(2)} MB (${f.filter.ranges} ranges, ${f.pending} pending); ` +
        `seeded in ${((seededAt - started) / 1000).toFixed(1)} s (workerd CPU ${(seedCpu.workerd / 1000).toFixed(1)} s), ` +
        `archived in ${((archivedAt - seededAt) / 1000).toFixed(1)} s (workerd CPU ${(archiveCpu.workerd / 1000).toFixed(1)} s), ` +
        `harness CPU ${((seedCpu.harness + archiveCpu.harness) / 1000).toFixed(1)} s` +
        (clients[1] ? `; companion ${(clients[1].perDay.at(-1).bytes / 1e6).toFixed(2)} MB` : ''),
    );
  }

  // Marginal bytes per archived transaction: from the first day the hot window is full to the last.
  const steady = perDay.filter((p) => p.day > RETENTION);
  const first = steady[0];
  const last = perDay.at(-1);
  const marginal =
    first && last && last.archivedTx > first.archivedTx
      ? (last.bytes - first.bytes) / (last.archivedTx - first.archivedTx)
      : Number.NaN;
  console.log(
    `marginal ${marginal.toFixed(2)} B per archived transaction (days ${first?.day}..${last.day}, the fixed per-day part included); ` +
      `at ${RATE * 1.5} transactions a day`,
  );

  // The fit: each client's live bytes and archived transactions grow linearly with the days once the
  // hot window is full and the first archive's one-off tables are written; their slopes are
  // s = F + b × t, t the transactions archived a day. Two clients at rates apart give F and b.
  const fitDays = (c) => c.perDay.filter((p) => p.day > RETENTION + WARMUP);
  const slopes = clients.map((c) => {
    const days = fitDays(c);
    const slope = dailySlope(days);
    console.log(
      `${c.name} at ${c.rate}/day: live bytes grow ${(slope.s / 1e3).toFixed(1)} ± ${(slope.se / 1e3).toFixed(1)} kB a day ` +
        `for ${slope.t.toFixed(0)} archived transactions a day (days ${days[0]?.day}..${days.at(-1)?.day}, least squares)`,
    );
    return slope;
  });
  const [one, two] = slopes;
  const { F, b, bSe } = fixedAndPerTransaction(one, two);
  console.log(
    two
      ? `fit: bytes(day) = F + b × transactions, F ${(F / 1e3).toFixed(1)} kB a day, b ${b.toFixed(2)} ± ${bSe.toFixed(2)} B per archived transaction ` +
          `(${RATE}/day and ${COMPANION_RATE}/day, days after ${RETENTION + WARMUP})`
      : 'fit: needs the companion client (--companion N)',
  );
  // At this run's rate when the fit is made; else the marginal, which holds the fixed part.
  const perDayTx = RATE * 1.5;
  const growth = Number.isFinite(b) ? F + b * perDayTx : marginal * perDayTx;
  const yearsTo = (limit) =>
    growth > 0 ? Math.max(0, limit - last.bytes) / growth / 365 : Number.POSITIVE_INFINITY;
  if (Number.isFinite(b))
    console.log(
      `projected at 1,000,000 Cash-Ins and 500,000 Cash-Outs a day: ${((F + b * 1.5e6) / 1e6).toFixed(1)} MB a day, ` +
        `10 years ${(((F + b * 1.5e6) * 3650) / GB).toFixed(1)} GB beside the hot window`,
    );

  // Where the time went: the runtime's CPU per transaction seeded and archived, past the warm-up.
  const cpuSteady = cpuDays.filter((c) => c.day > RETENTION + WARMUP);
  const sum = (xs, f) => xs.reduce((a, x) => a + f(x), 0);
  const seedUs = (1000 * sum(cpuSteady, (c) => c.seedCpu.workerd)) / sum(cpuSteady, (c) => c.seededTx);
  const archiveUs =
    (1000 * sum(cpuSteady, (c) => c.archiveCpu.workerd)) / sum(cpuSteady, (c) => c.archivedTx);
  const harnessUs =
    (1000 * sum(cpuSteady, (c) => c.seedCpu.harness + c.archiveCpu.harness)) /
    sum(cpuSteady, (c) => c.seededTx);
  console.log(
    `cpu: workerd ${seedUs.toFixed(0)} µs per transaction seeded, ${archiveUs.toFixed(0)} µs per transaction archived ` +
      `(with its ledger entries); harness ${harnessUs.toFixed(1)} µs per transaction (days after ${RETENTION + WARMUP}); ` +
      `a day at 1,000,000/day at these costs: ${((1.5e6 * (seedUs + archiveUs)) / 6e7).toFixed(0)} min of CPU`,
  );

  // GET by every id kind: archived (day 1) and hot (the last day), one of each in turn so the machine's
  // load drifts over both alike.
  const pick = (day) => (day - 1) * RATE + Math.floor(Math.random() * RATE);
  const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];
  const kinds = ['externalReference', 'transactionId', 'internalCode', 'endToEndId'];
  async function getAll(index, times) {
    const ids = { externalReference: `seed-in-${index}` };
    for (const kind of kinds) {
      const id = ids[kind];
      const at = performance.now();
      const res = await api('GET', `/cash-in/${encodeURIComponent(id)}`, { headers: main.auth });
      times[kind].push(performance.now() - at);
      if (res.status !== 200)
        throw new Error(`GET /cash-in/${id}: ${res.status} ${JSON.stringify(res.body)}`);
      if (kind === 'externalReference')
        Object.assign(ids, {
          transactionId: res.body.transactionId,
          internalCode: res.body.internalCode,
          endToEndId: res.body.endToEndId,
        });
    }
  }
  const timesOf = () => Object.fromEntries(kinds.map((k) => [k, []]));
  const hasArchived = DAYS > RETENTION;
  const archivedTimes = hasArchived ? timesOf() : undefined;
  const hotTimes = timesOf();
  const loadBefore = machine();
  const getsCpu = cpuMs();
  const getsAt = Date.now();
  for (let n = 0; n < SAMPLES; n++) {
    if (archivedTimes) await getAll(pick(1), archivedTimes);
    await getAll(pick(DAYS), hotTimes);
  }
  const getsUsed = since(getsCpu);
  const getsWall = Date.now() - getsAt;
  for (const kind of kinds)
    console.log(
      `GET by ${kind}: p99 archived ${archivedTimes ? p99(archivedTimes[kind]).toFixed(1) : '-'} ms, hot ${p99(hotTimes[kind]).toFixed(1)} ms`,
    );
  console.log(
    `GETs: ${SAMPLES} per id kind and age, interleaved; before them ${loadBefore}, after ${machine()}; ` +
      `workerd used ${((100 * getsUsed.workerd) / getsWall).toFixed(0)} % of a core over their ${(getsWall / 1000).toFixed(1)} s`,
  );
  const all = (t) => (t ? Object.values(t).flat() : []);
  const archivedP99 = archivedTimes ? p99(all(archivedTimes)) : Number.NaN;
  const hotP99 = p99(all(hotTimes));

  const f = await footprint(clientId, PROBES);
  const extra = f.positives / f.probes;
  console.log(
    `reference filter: ${f.filter.keys} references in ${f.filter.bytes} B (${((f.filter.bytes * 8) / Math.max(1, f.filter.keys)).toFixed(2)} bits each), ` +
      `${f.pending} pending; ` +
      `${f.positives} archived look-ups for ${f.probes} creates with fresh references (codes need none: unique by construction)`,
  );
  const perTx = Number.isFinite(b) ? b : marginal;
  summary =
    `footprint: ${DAYS} days at ${RATE}/day, object ${(last.bytes / GB).toFixed(3)} GB, ${perTx.toFixed(2)} B per archived transaction, ` +
    `years to 2 GB ${yearsTo(2 * GB).toFixed(1)}, years to 10 GB ${yearsTo(10 * GB).toFixed(1)}, ` +
    `archived GET p99 ${archivedP99.toFixed(1)} ms vs hot ${hotP99.toFixed(1)} ms, extra reads per create ${extra.toFixed(4)}`;
  await runtime.dispose();
  disposed = true;
  // Read with the runtime down, before the summary: the summary stays the last line.
  tables();
  console.log(summary);
} finally {
  if (!disposed) await runtime.dispose();
  rmSync(work, { recursive: true, force: true });
}

/**
 * Where the bytes are, per table with its indexes (dbstat, as test/node/footprint.test.ts reads it), in
 * each client object's file once the runtime is down: the largest is the measured client's.
 */
function tables() {
  const root = path.join(work, 'state', 'v3', 'do');
  const dir = readdirSync(root).find((d) => d.endsWith('-ClientLedger'));
  if (!dir) return;
  const files = readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith('.sqlite'))
    .map((f) => {
      const db = new DatabaseSync(path.join(root, dir, f), { readOnly: true });
      try {
        const rows = db
          .prepare(
            `SELECT coalesce(m.tbl_name, d.name) AS t, sum(d.pgsize) AS b, sum(d.unused) AS u FROM dbstat d
             LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY t ORDER BY b DESC`,
          )
          .all();
        return { rows, total: rows.reduce((a, r) => a + r.b, 0) };
      } finally {
        db.close();
      }
    })
    .sort((a, b) => b.total - a.total);
  for (const [name, file] of [
    ['client', files[0]],
    ['companion', COMPANION > 0 ? files[1] : undefined],
  ]) {
    if (!file) continue;
    const top = file.rows
      .slice(0, 12)
      .map((r) => `${r.t} ${(r.b / 1e3).toFixed(0)} kB (${((100 * r.u) / r.b).toFixed(0)} % unused)`);
    console.log(
      `tables of the ${name}'s object at the end, ${(file.total / 1e6).toFixed(1)} MB in pages: ${top.join(', ')}`,
    );
  }
}
