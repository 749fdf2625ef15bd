/**
 * npm run demo — fills a running local instance (`npm start` or `npm run serve`, staging) with a day
 * of traffic and one incident, through the public and operator APIs only, so the console
 * (/admin/console) has real plots to show a newcomer:
 *
 *   1. three clients onboarded (operator API), their wallets funded (sandbox deposit);
 *   2. three days of history up to now imported as observations (operator API, the way a new
 *      deployment warms its analyzer from the platform it replaces), with Beta failing Cash-Outs
 *      in the last three 5-minute windows; closing those windows opens a BANKING_PARTNER incident;
 *   3. live traffic through the public API: Cash-Ins paid through the sandbox and Cash-Outs, whose
 *      webhooks, ledger entries and health observations are the gateway's own. The webhooks go to a
 *      receiver this script runs while it runs: one client's are answered 200 (DELIVERED), another's
 *      500 (FAILED, waiting for a retry: the console's Redeliver button has something to do).
 *
 * Repeatable: each run onboards new clients and imports observations with fresh ids.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import { dailyShape, faults, generateArray } from '../test/support/health';
import { BETA, cashOutShare, DAY, HOUR, withIds, worldWith } from '../test/support/health/our-partners';
import { ClientSession, Gateway, type Onboarded } from './soak/api';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run demo -- [--url http://127.0.0.1:8787] [--admin-token <token>] [--live <n>]

Fills a running local instance (npm start / npm run serve, staging) with a day of traffic and one
incident through the public and operator APIs, then prints where to look (/admin/console).
  --url <url>            the gateway (default http://127.0.0.1:$PORT, PORT default 8787)
  --admin-token <token>  operator token (default ADMIN_TOKEN of .dev.vars, else dev-admin-token)
  --live <n>             Cash-Ins and Cash-Outs per client through the public API (default 6)
`);

const ROOT = path.resolve(import.meta.dirname, '..');
const WINDOW_MS = 5 * 60_000;
const IMPORT_CHUNK = 250;

function devVarsToken(): string | undefined {
  try {
    return parseEnv(readFileSync(path.join(ROOT, '.dev.vars'), 'utf8')).ADMIN_TOKEN;
  } catch {
    return undefined;
  }
}

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? '8787'}` },
    'admin-token': { type: 'string', default: devVarsToken() ?? 'dev-admin-token' },
    live: { type: 'string', default: '6' },
  },
});
const base = (values.url as string).replace(/\/$/, '');
const live = Number(values.live);
const gw = new Gateway((request) => fetch(request), base, values['admin-token'] as string);
const windowStart = (ms: number) => Math.floor(ms / WINDOW_MS) * WINDOW_MS;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => console.log(`[demo] ${line}`);

async function until<T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: timed out (${JSON.stringify(value).slice(0, 200)})`);
    await sleep(250);
  }
}

const analyzer = async () =>
  (await gw.admin('analyzer', 'GET', '/admin/health/analyzer', undefined, [200])).body;

/** Imports through the operator API and waits until the analyzer has taken every one. */
async function importObservations(observations: unknown[]): Promise<void> {
  const before = (await analyzer()).accepted as number;
  for (let i = 0; i < observations.length; i += IMPORT_CHUNK) {
    await gw.admin(
      'import',
      'POST',
      '/admin/health/observations',
      { observations: observations.slice(i, i + IMPORT_CHUNK) },
      [202],
    );
  }
  await until(analyzer, (s) => s.accepted - before >= observations.length, 120_000, 'analyzer intake');
}

async function onboard(name: string): Promise<ClientSession> {
  const res = await gw.admin('onboard', 'POST', '/admin/clients', { name }, [201]);
  const session = new ClientSession(gw, res.body as Onboarded);
  const account = session.client.accounts.find((a) => a.type === 'TRANSACTIONAL');
  if (account) {
    await session.post(
      'deposit',
      `/sandbox/accounts/${account.number}/deposit`,
      { amount: 5_000 },
      { expect: [200, 201] },
    );
  }
  return session;
}

// The demo's webhook receiver: `/ok` answers 200, `/fail` answers 500, as a broken integrator's would.
const receiver = createServer((req, res) => {
  req.resume();
  res.writeHead(req.url?.startsWith('/ok') ? 200 : 500).end();
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

async function liveTraffic(client: ClientSession, n: number, webhookUrl: string | undefined): Promise<void> {
  for (let i = 0; i < n; i++) {
    const cashIn = await client.post(
      'cash-in',
      '/cash-in',
      {
        amount: 25 + i * 7.5,
        externalReference: `demo-in-${randomUUID()}`,
        payer: { name: 'Maria da Silva', document: '12345678909' },
        includeQrCodeImage: false,
        ...(webhookUrl && { webhookUrl }),
      },
      { expect: [201], headers: { 'x-idempotency-key': randomUUID() } },
    );
    // Most payers pay; the rest let their charge expire.
    if (i % 4 !== 3) {
      await client.post('pay', `/sandbox/cash-in/${cashIn.body.internalCode}/pay`, {}, { expect: [200] });
    }
    await client.post(
      'cash-out',
      '/cash-out',
      {
        amount: 10 + i * 3,
        externalReference: `demo-out-${randomUUID()}`,
        payee: {
          name: 'Ana Beneficiária',
          document: '12345678909',
          destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: randomUUID() },
        },
        ...(webhookUrl && { webhookUrl }),
      },
      { expect: [202], signed: true, headers: { 'x-idempotency-key': randomUUID() } },
    );
  }
}

const started = Date.now();
say(`filling ${base}`);
const clients = await Promise.all(
  ['Apostas Exemplo Ltda', 'Carteira Digital Beta S.A.', 'Loja Virtual Gama ME'].map(onboard),
);
say(`onboarded ${clients.length} clients`);

// History: three days up to the current window, Beta failing Cash-Outs in the last three windows.
const world = worldWith(clients[1]!.client.clientId, 10);
const run = randomUUID();
const liveWindow = windowStart(Date.now());
const faultFrom = liveWindow - 3 * WINDOW_MS;
const historyStart = liveWindow - 3 * DAY;
// Enough Beta Cash-Outs per window for the failures to be judged at any hour of the day.
const peak = Math.ceil(60 / (5 * dailyShape(faultFrom + WINDOW_MS) * cashOutShare(world, BETA)));
const history = withIds(
  [
    ...generateArray({ world, seed: 7, from: historyStart, to: faultFrom }),
    ...generateArray({
      world: { ...world, peakPerMinute: Math.max(world.peakPerMinute, peak) },
      seed: 7,
      from: faultFrom,
      to: liveWindow,
      faults: [faults.partnerFailure(BETA, 'CASH_OUT', faultFrom, liveWindow, 1)],
    }),
  ],
  `demo-${run}`,
);
say(`importing ${history.length} observations (3 days, ${Math.round((liveWindow - historyStart) / HOUR)} h)`);
await importObservations(history);
const advanced = await gw.admin(
  'advance',
  'POST',
  '/admin/health/analyzer/advance',
  { until: new Date(liveWindow).toISOString() },
  [200],
);
say(
  `analyzer closed the windows up to ${new Date(liveWindow).toISOString()}: ${advanced.body.changes} incident change(s)`,
);

say(`live traffic: ${live} Cash-Ins and ${live} Cash-Outs per client through the public API`);
// Apostas: a receiver that answers; Gama: one that fails; Beta: no webhook URL (UNDELIVERABLE).
const webhookUrls = [`${hooks}/ok`, undefined, `${hooks}/fail`];
await Promise.all(clients.map((c, i) => liveTraffic(c, live, webhookUrls[i])));
const failing = clients[2]!;
const failed = await until(
  async () =>
    (
      await gw.admin(
        'deliveries',
        'GET',
        `/admin/clients/${failing.client.clientId}/webhook-deliveries?status=FAILED`,
        undefined,
        [200],
      )
    ).body.items as unknown[],
  (items) => items.length > 0,
  60_000,
  'a FAILED delivery',
);
say(
  `webhooks: Apostas Exemplo Ltda's are DELIVERED; Loja Virtual Gama ME has ${failed.length} FAILED, to redeliver from the console`,
);
// The receiver ends with this script: a redelivery after it is refused, and stays redeliverable.
receiver.closeAllConnections();
receiver.close();

const incidents = (await clients[1]!.get('incidents', '/health/pix/incidents')).body.items as {
  origin: { type: string; displayName: string };
  operation: string;
  status: string;
}[];
for (const i of incidents)
  say(`incident: ${i.origin.type} ${i.origin.displayName} ${i.operation} ${i.status}`);
if (incidents.length === 0) say('no incident was opened (the analyzer judged the fault windows normal)');
say(
  `done in ${Math.round((Date.now() - started) / 1000)} s: open ${base}/admin/console (token: the operator's)`,
);
say(
  'the Books page fills only with a declared partner: docs/operating.md, "Local real-partner flow" (npm run mock:psp)',
);
