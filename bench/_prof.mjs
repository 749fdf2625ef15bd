#!/usr/bin/env node
// npm run bench:footprint: a client's object under `--rate` Cash-Ins and half as many Cash-Outs a
// day for `--days` simulated days, on the local runtime (docs/benchmark.md, "Footprint"). Time is
// compressed as test/node/footprint.test.ts moves it: each day's rows are written in the past,
// copies of one real paid Cash-In and COMPLETED Cash-Out through the bench's bulk path
// (POST /__bench/seed-history, the rows' real stored shapes), and each simulated day ends with the
// archive run an operator would trigger (POST /admin/clients/{id}/archive) at the retention's
// cutoff. Prints the object's live bytes after each day, the marginal bytes per archived
// transaction, the years to 2 GB and 10 GB at this rate, the p99 of GET by each id (archived and
// hot), the extra reads per Cash-In create (the reference and code filters' positives on fresh ones),
// and last the summary line docs/benchmark.md compares from run to run.
import { createHmac, randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalRuntime } from '../runtime/local-runtime.mjs';
import { writeDevVars } from '../scripts/dev-vars.mjs';
import { exitWithUsageIfAsked } from '../scripts/usage.mjs';
import { inspector, gatewayWorker, moduleOfLine } from './inspector.mjs';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';

exitWithUsageIfAsked(`Usage: npm run bench:footprint -- [--days N] [--rate N] [--retention-days N] [--samples N] [--probes N]

  --days N            simulated days (default 30)
  --rate N            Cash-Ins a day; Cash-Outs are half as many (default 1000000)
  --retention-days N  days closed history stays hot before the day's archive run (default 1)
  --samples N         GETs per id kind, archived and hot (default 200)
  --probes N          fresh references asked of the filter (default 100000)`);

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    rate: { type: 'string', default: '1000000' },
    'retention-days': { type: 'string', default: '1' },
    samples: { type: 'string', default: '200' },
    probes: { type: 'string', default: '100000' },
  },
});
const int = (name) => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const DAYS = int('days');
const RATE = int('rate');
const RETENTION = int('retention-days');
const SAMPLES = int('samples');
const PROBES = int('probes');
const DAY = 86_400_000;
const CHUNK = 20_000;
const GB = 1e9;

const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-bench-footprint-'));
const varsFile = writeDevVars(path.join(work, 'vars'));
appendFileSync(varsFile, 'BENCH_SEED=on\n');
const runtime = await startLocalRuntime({
  port: 0,
  persistTo: path.join(work, 'state'),
  buildDir: path.join(work, 'build'),
  varsFile,
  cron: false,
  inspectorPort: 9391,
  onLog: () => {},
  log: () => {},
});

const TICK = 10;
function kids(pid) { try { return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean); } catch { return []; } }
function ticks(pid) { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * TICK; }
function cpuNow() { let w = 0; const stack = kids(process.pid); while (stack.length) { const p = stack.pop(); try { w += ticks(p); } catch {} stack.push(...kids(p)); } const u = process.cpuUsage(); return { w, n: (u.user + u.system) / 1000 }; }
let worker;
async function startProf() { worker ??= await gatewayWorker(9391); const i = await inspector(9391, worker); await i.send('Profiler.enable'); await i.send('Profiler.setSamplingInterval', { interval: 500 }); await i.send('Profiler.start'); return i; }
async function stopProf(i, name) {
  const { result } = await i.send('Profiler.stop'); i.close(); const profile = result.profile;
  writeFileSync(`/tmp/f41/${name}.cpuprofile`, JSON.stringify(profile));
  const bundle = readFileSync(path.join(work, 'build', 'index.js'), 'utf8'); const mod = moduleOfLine(bundle);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map(); for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const deltas = profile.timeDeltas; const timeOf = new Map();
  profile.samples.forEach((id, k) => timeOf.set(id, (timeOf.get(id) ?? 0) + Math.min(deltas[k+1] ?? 0, 5000)));
  const self = new Map(), mods = new Map(); let total = 0;
  for (const [id, us] of timeOf) { const n = byId.get(id); const f = n.callFrame; total += us;
    const k = `${f.functionName || '(anon)'} ${f.url ? (mod(f.lineNumber) ?? path.basename(f.url)) + ':' + (f.lineNumber+1) : ''}`; self.set(k, (self.get(k) ?? 0) + us);
    const m = f.url ? (mod(f.lineNumber) ?? f.url) : f.functionName; mods.set(m, (mods.get(m) ?? 0) + us); }
  console.log(`profile ${name}: ${(total/1000).toFixed(0)} ms sampled`);
  for (const [k, us] of [...mods].sort((a,b)=>b[1]-a[1]).slice(0, 15)) console.log(`  mod ${(us/1000).toFixed(0)} ms ${k}`);
  for (const [k, us] of [...self].sort((a,b)=>b[1]-a[1]).slice(0, 25)) console.log(`  self ${(us/1000).toFixed(0)} ms ${k}`);
}
const ADMIN = { authorization: 'Bearer dev-admin-token' };

async function api(method, url, { headers = {}, body } = {}) {
  const res = await fetch(`${runtime.url}${url}`, {
    method,
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

try {
  const template = await templatePair();
  const h = await onboard();
  const clientId = h.client.clientId;
  // Day 0 starts DAYS + 1 UTC days ago, so the last simulated day ends before now.
  const t0 = Math.floor(Date.now() / DAY) * DAY - (DAYS + 1) * DAY;
  const stepMs = DAY / RATE;
  const footprint = async (probes = 0) => {
    const res = await bench({ clientId, footprint: { probes } });
    if (res.status !== 200) throw new Error(`footprint: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const perDay = [];
  console.log(
    `footprint bench: ${DAYS} days at ${RATE} Cash-Ins and ${RATE / 2} Cash-Outs a day, retention ${RETENTION} d`,
  );
  for (let d = 0; d < DAYS; d++) {
    const started = Date.now();
    const prof = process.env.PROF && d === 1 ? await startProf() : undefined;
    const cpu0 = cpuNow();
    for (let k = 0; k < RATE; k += CHUNK) {
      const res = await bench({
        templateClientId: template.clientId,
        cashInId: template.cashInId,
        cashOutId: template.cashOutId,
        clientId,
        offset: d * RATE + k,
        count: Math.min(CHUNK, RATE - k),
        from: t0,
        stepMs,
        payees: 1000,
        cashOutEvery: 2,
      });
      if (res.status !== 204) throw new Error(`seeding day ${d}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const seededAt = Date.now();
    const cpu1 = cpuNow();
    if (prof) await stopProf(prof, 'seed');
    const prof2 = process.env.PROF && d === 1 ? await startProf() : undefined;
    // The end of day d: what closed RETENTION days before leaves.
    const before = new Date(t0 + (d + 1 - RETENTION) * DAY).toISOString();
    const archived = await api('POST', `/admin/clients/${clientId}/archive`, {
      headers: ADMIN,
      body: { before },
    });
    if (archived.status !== 200)
      throw new Error(`archive day ${d}: ${archived.status} ${JSON.stringify(archived.body)}`);
    const cpu2 = cpuNow();
    if (prof2) await stopProf(prof2, 'archive');
    console.log(`cpu day ${d+1}: seed wall ${seededAt-started} ms workerd ${cpu1.w-cpu0.w} ms node ${cpu1.n-cpu0.n} ms; archive wall ${Date.now()-seededAt} ms workerd ${cpu2.w-cpu1.w} ms node ${cpu2.n-cpu1.n} ms`);
    const f = await footprint();
    const written = (d + 1) * RATE + Math.ceil(((d + 1) * RATE) / 2);
    const archivedTx = written - f.hotCashIns - f.hotCashOuts;
    perDay.push({
      day: d + 1,
      bytes: f.bytes,
      archivedTx,
      hot: f.hotCashIns + f.hotCashOuts,
      filter: f.filter.bytes,
    });
    console.log(
      `day ${d + 1}: object ${(f.bytes / 1e6).toFixed(1)} MB, hot ${f.hotCashIns + f.hotCashOuts} transactions, archived ${archivedTx}, ` +
        `filter ${(f.filter.bytes / 1e6).toFixed(2)} MB (${f.filter.ranges} ranges), codes ${(f.codeFilter.bytes / 1e6).toFixed(2)} MB; seeded in ${((seededAt - started) / 1000).toFixed(1)} s, ` +
        `archived in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`,
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
  const perDayTx = RATE * 1.5;
  const yearsTo = (limit) =>
    marginal > 0 ? Math.max(0, limit - last.bytes) / (marginal * perDayTx) / 365 : Number.POSITIVE_INFINITY;

  // GET by every id kind: archived (day 1) and hot (the last day).
  const pick = (day) =>
    Array.from({ length: SAMPLES }, () => (day - 1) * RATE + Math.floor(Math.random() * RATE));
  const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];
  async function gets(indexes) {
    const times = { externalReference: [], transactionId: [], internalCode: [], endToEndId: [] };
    for (const i of indexes) {
      const ids = { externalReference: `seed-in-${i}` };
      for (const kind of Object.keys(times)) {
        const id = ids[kind];
        if (id === undefined) continue;
        const at = performance.now();
        const res = await api('GET', `/cash-in/${encodeURIComponent(id)}`, { headers: h.auth });
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
    return times;
  }
  const archivedDay = perDay.find((p) => p.day <= DAYS - RETENTION) ? 1 : undefined;
  const archivedTimes = archivedDay ? await gets(pick(archivedDay)) : undefined;
  const hotTimes = await gets(pick(DAYS));
  for (const kind of Object.keys(hotTimes))
    console.log(
      `GET by ${kind}: p99 archived ${archivedTimes ? p99(archivedTimes[kind]).toFixed(1) : '-'} ms, hot ${p99(hotTimes[kind]).toFixed(1)} ms`,
    );
  const all = (t) => (t ? Object.values(t).flat() : []);
  const archivedP99 = archivedTimes ? p99(all(archivedTimes)) : Number.NaN;
  const hotP99 = p99(all(hotTimes));

  const f = await footprint(PROBES);
  const extra = f.positives / f.probes;
  console.log(
    `reference filter: ${f.filter.keys} references in ${f.filter.bytes} B (${((f.filter.bytes * 8) / Math.max(1, f.filter.keys)).toFixed(2)} bits each), ` +
      `code filter: ${f.codeFilter.keys} codes in ${f.codeFilter.bytes} B; ` +
      `${f.positives} archived look-ups for ${f.probes} creates with fresh references and codes`,
  );
  console.log(
    `marginal ${marginal.toFixed(2)} B per archived transaction (days ${first?.day}..${last.day}); at ${perDayTx} transactions a day`,
  );
  console.log(
    `footprint: ${DAYS} days at ${RATE}/day, object ${(last.bytes / GB).toFixed(3)} GB, ${marginal.toFixed(2)} B per archived transaction, ` +
      `years to 2 GB ${yearsTo(2 * GB).toFixed(1)}, years to 10 GB ${yearsTo(10 * GB).toFixed(1)}, ` +
      `archived GET p99 ${archivedP99.toFixed(1)} ms vs hot ${hotP99.toFixed(1)} ms, extra reads per create ${extra.toFixed(4)}`,
  );
} finally {
  await runtime.dispose();
  rmSync(work, { recursive: true, force: true });
}
