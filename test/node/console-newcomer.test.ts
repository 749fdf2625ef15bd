/**
 * The operator console as a newcomer first sees it, in a real browser (Debian's Chromium driven by
 * playwright-core) against the real runtime over HTTP (the deploy bundle in workerd, staging):
 *
 * - a fresh deployment with a few minutes of real traffic: the time axis fits the data (no 1-pixel
 *   sliver at the right of 24 hours), a window with no neighbour is drawn as a point, the axis is a
 *   24-hour clock in BRT, partners show by name, the payee banks of 10 Cash-Outs show their volume,
 *   the client's limits appear once; on a phone nothing scrolls sideways and Redeliver and its
 *   notice are on screen;
 * - `npm run demo` on another fresh instance: a day of traffic and one incident on the plots.
 *
 * Screenshots go to test-artifacts/console/ (git-ignored); their paths are printed.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { writeDevVars } from '../../scripts/dev-vars.mjs';
import { ClientSession, Gateway, type Onboarded } from '../../scripts/soak/api';
import { startMockPsp } from '../support/mock-psp-server';
import { until } from '../support/processes';
import { ADMIN, failingReceiver, launchChromium, SHOTS, signIn } from './support/browser';
import { startTestRuntime } from './support/runtime';

const WINDOW_MS = 5 * 60_000;
const PHONE = { width: 390, height: 844 };

type Runtime = Awaited<ReturnType<typeof startTestRuntime>>;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof failingReceiver>>;
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-console-newcomer-'));
const runtimes: Runtime[] = [];
const shots: string[] = [];

beforeAll(async () => {
  receiver = await failingReceiver();
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const runtime of runtimes) await runtime.dispose();
  await receiver?.close();
  rmSync(work, { recursive: true, force: true });
  for (const shot of shots) console.log(`console screenshot: ${path.relative(ROOT, shot)}`);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freshRuntime(
  name: string,
  options: Parameters<typeof startTestRuntime>[1] = {},
): Promise<Runtime> {
  mkdirSync(path.join(work, name), { recursive: true });
  const runtime = await startTestRuntime(path.join(work, name), options);
  runtimes.push(runtime);
  return runtime;
}

async function signedIn(runtime: Runtime, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await signIn(page, runtime.url);
  await page.locator('.chart[data-rendered="true"]').first().waitFor();
  return page;
}

async function shot(page: Page, name: string, fullPage = true) {
  const file = path.join(SHOTS, name);
  await page.screenshot({ path: file, fullPage });
  shots.push(file);
}

/** Every rendered chart's published state (src/console/assets/console.js.txt). */
interface ChartState {
  key: string;
  volume: number;
  xFrom: number;
  xTo: number;
  xLabel: string;
  xTicks: string[];
  isolated: [number, number][];
  drawnBands: number;
}
const charts = (page: Page) =>
  page.evaluate<ChartState[]>(`[...document.querySelectorAll('.chart[data-rendered="true"]')].map((el) => ({
    key: el.dataset.chart,
    volume: JSON.parse(document.getElementById('chart-data').textContent)
      .find((c) => c.key === el.dataset.chart).volume.reduce((a, b) => a + b, 0),
    // The time axis and volumes as the server sent them (the page's embedded chart data).
    xFrom: JSON.parse(document.getElementById('chart-data').textContent).find((c) => c.key === el.dataset.chart).x[0],
    xTo: JSON.parse(document.getElementById('chart-data').textContent).find((c) => c.key === el.dataset.chart).x.at(-1),
    xLabel: el.dataset.xLabel,
    xTicks: JSON.parse(el.dataset.xTicks || '[]'),
    isolated: JSON.parse(el.dataset.isolated || '[]'),
    drawnBands: Number(el.dataset.drawnBands || 0),
  }))`);

/** The canvas pixel (RGBA) at device coordinates of a chart's canvas. */
const pixel = (page: Page, key: string, [x, y]: [number, number]) =>
  page.evaluate<number[]>(
    `Array.from(document.querySelector('.chart[data-chart="${key}"] canvas').getContext('2d').getImageData(${x}, ${y}, 1, 1).data)`,
  );

it('a fresh deployment: fitted axis, single-window points, BRT, names, payee-bank volume, phone', async () => {
  const runtime = await freshRuntime('fresh');
  const gw = new Gateway((request) => fetch(request), runtime.url, ADMIN);
  const onboarded = await gw.admin(
    'onboard',
    'POST',
    '/admin/clients',
    { name: 'Loja Primeira Ltda' },
    [201],
  );
  const client = new ClientSession(gw, onboarded.body as Onboarded);
  const account = client.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
  await client.post(
    'deposit',
    `/sandbox/accounts/${account.number}/deposit`,
    { amount: 1_000 },
    { expect: [200, 201] },
  );
  // All the traffic inside one 5-minute window, so each plot has exactly one: a point, no line.
  const left = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS - Date.now();
  if (left < 120_000) await sleep(left + 1_000);
  const ids = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => {
      const res = await client.post(
        'cash-out',
        '/cash-out',
        {
          amount: 5 + i,
          externalReference: `fresh-out-${i}-${crypto.randomUUID()}`,
          payee: {
            name: 'Ana Beneficiária',
            document: '12345678909',
            destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
          },
        },
        { expect: [202], signed: true },
      );
      return res.body.transactionId as string;
    }),
  );
  const outcomes = await Promise.all(
    ids.map((id) =>
      until(
        'the Cash-Out to end COMPLETED or CANCELLED',
        async () => (await client.get('get', `/cash-out/${id}`)).body,
        (c) => ['COMPLETED', 'CANCELLED'].includes(c.status),
      ),
    ),
  );
  const completed = outcomes.filter((o) => o.status === 'COMPLETED').length;
  // A Cash-In whose webhook receiver answers 500: a FAILED delivery to redeliver.
  const cashIn = await client.post(
    'cash-in',
    '/cash-in',
    {
      amount: 12.5,
      externalReference: `fresh-in-${crypto.randomUUID()}`,
      payer: { name: 'Maria da Silva', document: '12345678909' },
      includeQrCodeImage: false,
      webhookUrl: receiver.url,
    },
    { expect: [201] },
  );
  const deliveries = `/admin/clients/${client.client.clientId}/webhook-deliveries`;
  // FAILED after its second attempt: the next one is 5 minutes away, so it is still FAILED (not
  // IN_FLIGHT in its 5-second retry, which Redeliver refuses) when the phone presses the button.
  const failed = await until(
    'the Cash-In’s webhook delivery to be FAILED after two attempts',
    async () => (await gw.admin('list', 'GET', `${deliveries}?status=FAILED`, undefined, [200])).body.items,
    (items: any[]) => items.length === 1 && items[0].attempts >= 2,
  );
  expect(failed[0].aggregateId).toBe(cashIn.body.transactionId);
  // Every observation (10 created + 10 outcomes + the Cash-In) reached the analyzer's series.
  await until(
    'the analyzer to take all 21 observations',
    async () => (await gw.admin('analyzer', 'GET', '/admin/health/analyzer', undefined, [200])).body,
    (s) => s.accepted >= 21,
  );

  const page = await signedIn(runtime);
  const now = Date.now() / 1000;
  const state = await charts(page);
  expect(state.length).toBeGreaterThan(0);
  // The axis fits the data: at most the 2-hour minimum span, not 24 hours with data in the last pixel.
  for (const c of state) {
    expect(c.xTo - c.xFrom, c.key).toBeLessThanOrEqual(2 * 3600 + 300);
    expect(c.xFrom, c.key).toBeGreaterThan(now - 3 * 3600);
  }
  // 24-hour clock in São Paulo time, labelled: one of the ticks is this hour or the last one in BRT
  // (the browser runs in UTC, 3 hours apart).
  const brtHour = (ms: number) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Sao_Paulo',
      hour: '2-digit',
      hourCycle: 'h23',
    }).format(ms);
  for (const c of state) {
    expect(c.xLabel).toBe('BRT (America/Sao_Paulo)');
    expect(c.xTicks.length, c.key).toBeGreaterThan(0);
    for (const tick of c.xTicks) expect(tick).toMatch(/^([01]\d|2[0-3]):[0-5]\d$|^\d{2}\/\d{2}$/);
  }
  const hours = new Set([
    brtHour(Date.now()),
    brtHour(Date.now() - 3600_000),
    brtHour(Date.now() - 7200_000),
  ]);
  expect(
    state[0]!.xTicks.some((t) => hours.has(t.slice(0, 2))),
    JSON.stringify(state[0]!.xTicks),
  ).toBe(true);
  // The single window is drawn: a blue point where its success rate is.
  const withPoint = state.filter((c) => c.isolated.length > 0);
  expect(withPoint.length, JSON.stringify(state)).toBeGreaterThan(0);
  await shot(page, 'fresh-dashboard.png');
  const single = path.join(SHOTS, 'fresh-single-window.png');
  await page.locator(`.chart[data-chart="${withPoint[0]!.key}"]`).screenshot({ path: single });
  shots.push(single);
  for (const c of withPoint) {
    for (const at of c.isolated) {
      const [r, g, b, a] = await pixel(page, c.key, at);
      expect(b! - r!, `${c.key} at ${at}: rgba(${r}, ${g}, ${b}, ${a}) ${JSON.stringify(c)}`).toBeGreaterThan(
        60,
      );
    }
  }
  // The payee banks of the Cash-Outs that completed carry their volume.
  // (The console plots the busiest banks: each one shown counts exactly its Cash-Outs.)
  const payeeBanks = state.filter((c) => c.key.startsWith('institution:') && c.key.endsWith(':CASH_OUT'));
  expect(payeeBanks.length).toBeGreaterThan(0);
  for (const c of payeeBanks) {
    const ispb = c.key.split(':')[1];
    const paid = outcomes.filter((o) => o.status === 'COMPLETED' && o.payee?.bankData?.ispb === ispb).length;
    expect(c.volume, c.key).toBe(paid);
    expect(paid, c.key).toBeGreaterThan(0);
  }
  expect(completed).toBeGreaterThan(0);
  // Partners by name, not ISPB; the limits line once (the clients table), not again under Deliveries.
  const partners = (await page.textContent('#clients td.partners')) ?? '';
  expect(partners).toContain('Banco Alfa Liquidações S.A.');
  expect(partners).not.toMatch(/\d{8}/);
  expect(await page.textContent('#deliveries')).not.toContain('approval above');
  expect(((await page.textContent('main')) ?? '').split('approval above').length - 1).toBe(1);

  // A phone: nothing wider than the screen, no table scrolling sideways, Redeliver on screen.
  const phone = await browser.newPage({ viewport: PHONE, isMobile: true });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${runtime.url}/admin/console?client=${client.client.clientId}`);
  await phone.locator('.chart[data-rendered="true"]').first().waitFor();
  expect(
    await phone.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'),
  ).toBeLessThanOrEqual(0);
  expect(
    await phone.evaluate<string[]>(
      `[...document.querySelectorAll('.scroll, .scroll table')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.outerHTML.slice(0, 80))`,
    ),
  ).toEqual([]);
  const button = phone.locator(`tr[data-event-id="${failed[0].eventId}"] button`);
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  await shot(phone, 'phone-redeliver.png', false);
  receiver.fix();
  await Promise.all([phone.waitForURL(/notice=redelivered/), button.click()]);
  const notice = phone.locator('#notice');
  await expect.poll(() => notice.textContent()).toContain('queued again');
  const noticeBox = (await notice.boundingBox())!;
  expect(noticeBox.y).toBeGreaterThanOrEqual(0);
  expect(noticeBox.y + noticeBox.height).toBeLessThanOrEqual(PHONE.height);
  expect(noticeBox.x + noticeBox.width).toBeLessThanOrEqual(PHONE.width);
  await shot(phone, 'phone-redelivered.png', false);
  await shot(phone, 'phone-full.png');
}, 300_000);

it('npm run demo fills a fresh instance with a day of traffic and an incident the console shows', async () => {
  // The documented mock flow: the mock PSP runs, the gateway declares it with the vars it prints.
  const mock = await startMockPsp(0, { callbacks: {} });
  mkdirSync(path.join(work, 'demo'), { recursive: true });
  const vars = writeDevVars(path.join(work, 'demo', 'partner.vars'));
  for (const [name, value] of Object.entries(mock.partnerVars)) appendFileSync(vars, `${name}='${value}'\n`);
  const runtime = await freshRuntime('demo', { varsFile: vars });
  const demo = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
      'scripts/demo.ts',
      '--url',
      runtime.url,
      '--admin-token',
      ADMIN,
      '--live',
      '3',
      '--with-mock-psp',
      '--mock-url',
      mock.url,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  demo.stdout.on('data', (d) => (output += d));
  demo.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => demo.on('exit', resolve));
  // The test runtime fires no cron by itself; npm start fires it every minute, here once the demo waits for it.
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  while (code === undefined) {
    if (output.includes('waiting for the reconciliation')) await runtime.scheduled();
    await sleep(2_000);
  }
  await mock.close();
  expect(code, output).toBe(0);
  expect(output).toMatch(
    /mock PSP: 3 Cash-Ins of Mercado Delta Ltda PAID; unapplied receipts \S+, \S+, RETURNED to the payers/,
  );
  expect(output).toMatch(/reconciliation \d{4}-\d{2}-\d{2} with the mock PSP: MATCHED/);
  expect(output).toMatch(/incident: BANKING_PARTNER Beta Pagamentos Instantâneos S\.A\. CASH_OUT/);
  expect(output).not.toContain('undefined');
  expect(output).toMatch(/analyzer closed the windows up to \S+: \d+ incident change\(s\)/);

  const page = await signedIn(runtime);
  const state = await charts(page);
  const now = Date.now() / 1000;
  // The day: the axis spans the last 24 hours, every partner and the busiest banks have volume.
  for (const c of state) expect(c.xFrom, c.key).toBeLessThanOrEqual(now - 23 * 3600);
  // The three sandbox partners both ways, and the mock PSP's Cash-Ins (the demo routes none of its Cash-Outs there).
  const partnerCharts = state.filter((c) => c.key.startsWith('partner:')).map((c) => c.key);
  expect(partnerCharts.length, partnerCharts.join()).toBe(7);
  expect(partnerCharts).toContain('partner:09089356:CASH_IN');
  expect(state.every((c) => c.volume > 0)).toBe(true);
  const beta = state.find((c) => c.key === 'partner:42273459:CASH_OUT')!;
  expect(beta.drawnBands).toBeGreaterThanOrEqual(1);
  expect(
    await page.locator('.incident[data-origin="BANKING_PARTNER:42273459"]').count(),
  ).toBeGreaterThanOrEqual(1);
  expect(await page.textContent('#clients')).toContain('Apostas Exemplo Ltda');
  await shot(page, 'demo-dashboard.png');
  // Deliveries to redeliver: the failing receiver's client has FAILED rows with the button, and
  // the answering receiver's client has DELIVERED ones.
  const gw = new Gateway((request) => fetch(request), runtime.url, ADMIN);
  const byName = async (name: string) =>
    new URL(
      (await page.locator('#clients a', { hasText: name }).getAttribute('href'))!,
      runtime.url,
    ).searchParams.get('client')!;
  const apostas = await byName('Apostas Exemplo Ltda');
  // The failing receiver's client has FAILED rows with the Redeliver button. A FAILED delivery is
  // retried on its schedule (IN_FLIGHT while the attempt runs, FAILED again after), so the page is
  // loaded again until one shows. Reloaded: going to the same URL with a fragment only scrolls, with
  // no request, which made this test's earlier "re-reads" a single read.
  const gama = await byName('Loja Virtual Gama ME');
  await page.goto(`${runtime.url}/admin/console?client=${gama}#deliveries`);
  const failedRows = page.locator('#deliveries tr[data-status="FAILED"] button', { hasText: 'Redeliver' });
  await expect
    .poll(
      async () => {
        const shown = await failedRows.count();
        if (shown === 0) await page.reload();
        return shown;
      },
      { timeout: 120_000, interval: 1_000 },
    )
    .toBeGreaterThan(0);
  const failedOnes = await until(
    'a FAILED webhook delivery of the demo’s client',
    async () =>
      (
        await gw.admin(
          'failed',
          'GET',
          `/admin/clients/${gama}/webhook-deliveries?status=FAILED`,
          undefined,
          [200],
        )
      ).body as { items: unknown[] },
    (body) => body.items.length > 0,
  );
  expect(failedOnes.items.length).toBeGreaterThan(0);
  await shot(page, 'demo-deliveries.png');
  const delivered = await gw.admin(
    'delivered',
    'GET',
    `/admin/clients/${apostas}/webhook-deliveries?status=DELIVERED`,
    undefined,
    [200],
  );
  expect(delivered.body.items.length).toBeGreaterThan(0);
  await page
    .locator('.chart[data-chart="partner:42273459:CASH_OUT"]')
    .screenshot({ path: path.join(SHOTS, 'demo-beta-cash-out.png') });
  shots.push(path.join(SHOTS, 'demo-beta-cash-out.png'));
  // The Books page has content: the mock's unapplied receipts and its reconciled day.
  await page.goto(`${runtime.url}/admin/console/books`);
  const unapplied = page.locator('#unapplied tbody tr');
  expect(await unapplied.count()).toBe(2);
  expect(await page.textContent('#unapplied')).toMatch(/AMOUNT_MISMATCH/);
  expect(await page.textContent('#unapplied')).toMatch(/DUPLICATE/);
  const day = page.locator('#reconciliation details');
  expect(await day.count()).toBeGreaterThanOrEqual(1);
  expect(await day.first().textContent()).toContain('PSP de Testes S.A.');
  expect(await day.first().textContent()).toContain('MATCHED');
  expect(await page.locator('#unapplied tbody tr', { hasText: 'RETURNED' }).count()).toBe(2);
  expect(await page.textContent('#reconciliation')).not.toContain('No day checked yet');
  await shot(page, 'demo-books.png');
}, 420_000);
