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
 *   4. with --with-mock-psp, the Books page: a client routed through the mock PSP (`npm run mock:psp`,
 *      declared to the gateway as its printed `npm start` line does), its Cash-Ins paid at the mock,
 *      one paid with another amount and one paid twice (unapplied receipts, returned to the payer),
 *      and the daily reconciliation of the mock partner (the cron of `npm start`, every minute).
 *
 * Repeatable: each run onboards new clients and imports observations with fresh ids.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import { present } from '../src/domain/present';
import { FAKE_PSP_ISPB } from '../test/support/fake-psp-env';
import { dailyShape, faults, generateArray } from '../test/support/health';
import { BETA, cashOutShare, DAY, HOUR, withIds, worldWith } from '../test/support/health/our-partners';
import { ClientSession, Gateway, type Onboarded } from './soak/api';
import { exitWithUsageIfAsked } from './usage.mjs';

exitWithUsageIfAsked(`
Usage: npm run demo -- [--url http://127.0.0.1:8787] [--admin-token <token>] [--live <n>]
                       [--with-mock-psp [--mock-url http://127.0.0.1:8790]]

Fills a running local instance (npm start / npm run serve, staging) with a day of traffic and one
incident through the public and operator APIs, then prints where to look (/admin/console).
  --url <url>            the gateway (default http://127.0.0.1:$PORT, PORT default 8787)
  --admin-token <token>  operator token (default ADMIN_TOKEN of .dev.vars, else dev-admin-token)
  --live <n>             Cash-Ins and Cash-Outs per client through the public API (default 6)
  --with-mock-psp        also fill the Books page through the mock PSP: run \`npm run mock:psp\` first and
                         start the gateway with the line it prints (docs/operating.md, "Local real-partner
                         flow"); a client's Cash-Ins are paid at the mock, two of them wrongly (unapplied
                         receipts), and the demo waits for the partner's daily reconciliation
  --mock-url <url>       the mock PSP (default http://127.0.0.1:8790)
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
    'with-mock-psp': { type: 'boolean', default: false },
    'mock-url': { type: 'string', default: 'http://127.0.0.1:8790' },
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
const beta = present(clients[1], 'Beta');
const world = worldWith(beta.client.clientId, 10);
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
const failing = present(clients[2], 'Gama');
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

const incidents = (await beta.get('incidents', '/health/pix/incidents')).body.items as {
  origin: { type: string; displayName: string };
  operation: string;
  status: string;
}[];
for (const i of incidents)
  say(`incident: ${i.origin.type} ${i.origin.displayName} ${i.operation} ${i.status}`);
if (incidents.length === 0) say('no incident was opened (the analyzer judged the fault windows normal)');
if (values['with-mock-psp']) await mockPspBooks((values['mock-url'] as string).replace(/\/$/, ''));
say(
  `done in ${Math.round((Date.now() - started) / 1000)} s: open ${base}/admin/console (token: the operator's)`,
);
if (!values['with-mock-psp']) {
  say(
    'the Books page fills only with a declared partner: npm run demo -- --with-mock-psp, after the mock flow of ' +
      'docs/operating.md, "Local real-partner flow" (npm run mock:psp)',
  );
}

/** A Pix end-to-end id as the mock PSP takes it (E, ISPB, yyyyMMddHHmm, 11 characters). */
function endToEndId(): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 12);
  return `E${FAKE_PSP_ISPB}${stamp}${randomUUID().replace(/-/g, '').slice(0, 11)}`;
}

/**
 * The Books page's content, through the mock PSP as a real partner: the gateway must declare it
 * (the `npm start` line `npm run mock:psp` prints); the demo registers the callback URL, as an
 * operator does, then pays at the mock as payers would.
 */
async function mockPspBooks(mock: string): Promise<void> {
  const howTo =
    `run \`npm run mock:psp\` (${mock}) and start the gateway with the line it prints: ` +
    'docs/operating.md, "Local real-partner flow"';
  const control = async (name: string, body?: unknown) => {
    const res = await fetch(`${mock}/__control/${name}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }).catch((error) => {
      throw new Error(`no mock PSP at ${mock} (${error.cause?.code ?? error}): ${howTo}`);
    });
    if (!res.ok) throw new Error(`mock PSP ${name}: ${res.status} ${await res.text()}`);
    return (await res.json()) as unknown;
  };
  await control('balance');
  const registered = await gw.admin(
    'webhook',
    'PUT',
    `/admin/partners/${FAKE_PSP_ISPB}/webhook`,
    { baseUrl: base },
    [200, 404],
  );
  if (registered.status === 404)
    throw new Error(`the gateway does not declare the mock PSP (ISPB ${FAKE_PSP_ISPB}): ${howTo}`);
  const res = await gw.admin(
    'onboard',
    'POST',
    '/admin/clients',
    { name: 'Mercado Delta Ltda', partners: [FAKE_PSP_ISPB] },
    [201],
  );
  const client = new ClientSession(gw, res.body as Onboarded);
  const paid: string[] = [];
  for (let i = 0; i < 4; i++) {
    const amount = 30 + i * 12.5;
    const cashIn = await client.post(
      'cash-in',
      '/cash-in',
      {
        amount,
        externalReference: `demo-psp-${randomUUID()}`,
        payer: { name: 'João Pereira', document: '12345678909' },
        includeQrCodeImage: false,
      },
      { expect: [201], headers: { 'x-idempotency-key': randomUUID() } },
    );
    const { transactionId, internalCode } = cashIn.body as { transactionId: string; internalCode: string };
    if (i === 3) {
      // A payer who paid another amount than the charge's: no Cash-In can take it (AMOUNT_MISMATCH).
      await control('pay', { txid: transactionId, endToEndId: endToEndId(), valor: (amount + 1).toFixed(2) });
      continue;
    }
    await control('pay', { txid: transactionId, endToEndId: endToEndId() });
    // A payer who paid the same charge twice (DUPLICATE).
    if (i === 2) await control('pay', { txid: transactionId, endToEndId: endToEndId() });
    paid.push(internalCode);
  }
  for (const code of paid) {
    await until(
      async () => ((await client.get('cash-in', `/cash-in/${code}`)).body as { status: string }).status,
      (status) => status === 'PAID',
      60_000,
      `Cash-In ${code} PAID at the mock PSP`,
    );
  }
  type Receipt = { reason: string; endToEndId: string; return: { id: string; status: string } };
  const receipts = async () =>
    (await gw.admin('unapplied', 'GET', `/admin/unapplied?ispb=${FAKE_PSP_ISPB}`, undefined, [200])).body
      .items as Receipt[];
  const unapplied = await until(receipts, (items) => items.length >= 2, 60_000, 'the unapplied receipts');
  // The network settles each return the gateway asked for, once the mock has the request; the mock
  // then posts the callback and the receipt turns RETURNED.
  for (const r of unapplied) {
    await until(
      async () =>
        ((await control(`pix/${r.endToEndId}`)) as { devolucoes?: { id: string }[] } | null)?.devolucoes ??
        [],
      (devolutions) => devolutions.some((d) => d.id === r.return.id),
      60_000,
      `the return ${r.return.id} at the mock PSP`,
    );
    await control('devolution', { endToEndId: r.endToEndId, id: r.return.id, ok: true });
  }
  await until(receipts, (items) => items.every((r) => r.return.status === 'RETURNED'), 60_000, 'the returns');
  say(
    `mock PSP: ${paid.length} Cash-Ins of Mercado Delta Ltda PAID; unapplied receipts ` +
      `${unapplied.map((u) => u.reason).join(', ')}, RETURNED to the payers`,
  );
  // The daily reconciliation checks closed days (yesterday, São Paulo) for a declared partner.
  const yesterday = new Date(Date.now() - 3 * HOUR - DAY).toISOString().slice(0, 10);
  say(`waiting for the reconciliation of ${yesterday} (the gateway's cron, every minute)`);
  const report = await until(
    () =>
      gw.admin(
        'reconciliation',
        'GET',
        `/admin/reconciliation?date=${yesterday}&ispb=${FAKE_PSP_ISPB}`,
        undefined,
        [200, 404],
      ),
    // 404 until the first check of the day; PENDING while the partner could not be read.
    (res) => res.status === 200 && res.body.status !== 'PENDING',
    180_000,
    `the reconciliation of ${yesterday}`,
  );
  say(
    `reconciliation ${yesterday} with the mock PSP: ${report.body.status}; open ${base}/admin/console/books`,
  );
}
