/**
 * The operator console in a real browser (Debian's Chromium driven by playwright-core) against the
 * real runtime over HTTP (runtime/local-runtime.mjs: the deploy bundle in workerd, staging).
 *
 * The incident on the plot comes the production way: history imported through the operator API warms
 * the analyzer (bootstrap), an operator fault on the sandbox partner Beta fails real Cash-Outs, and
 * closing their window opens a BANKING_PARTNER incident (the same shape as
 * test/health/queue-e2e.test.ts: Beta also fails in the generated window before, so the second
 * anomalous window in a row is the real one). The test signs in, sees a client, sees the incident
 * drawn on Beta's Cash-Out plot, redelivers a FAILED webhook, and saves screenshots (paths printed).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { ClientSession, Gateway, type Onboarded } from '../../scripts/soak/api';
import { dailyShape, faults, generateArray } from '../support/health';
import { BETA, cashOutShare, DAY, HOUR, withIds, worldWith } from '../support/health/our-partners';
import { until } from '../support/processes';
import { ADMIN, consoleInBrowser, SHOTS, signIn } from './support/browser';

const WINDOW_MS = 5 * 60_000;
const windowStart = (ms: number) => Math.floor(ms / WINDOW_MS) * WINDOW_MS;

const ui = consoleInBrowser('console', { failingReceiver: true });

/** Money with a centavos part written like `R$ 1.234,56`; any `R$` that is not so is US-formatted. */
const BRL = /R\$\s?\d{1,3}(\.\d{3})*,\d{2}(?!\d)/g;
/** Words every Portuguese incident summary uses (src/health/lifecycle/summary.ts); the console speaks English. */
const PORTUGUESE = /\b(desde|afeta|parceiros? bancários?|abaixo do esperado|Degradação|Indisponibilidade)\b/i;
const DATE_STYLE = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}(:\d{2})? BRT$/;

/**
 * What a Brazilian reads on a page: every amount pt-BR, no decimal point in a number, every time in
 * the one BRT style. Returns the page's text for more checks.
 */
async function readsBrazilian(page: Page, what: string): Promise<string> {
  const text = (await page.evaluate<string>('document.body.innerText')).replace(/\s+/g, ' ');
  const amounts = text.match(/R\$\s?[-\d.,]+/g) ?? [];
  for (const amount of amounts) expect(amount, `${what}: ${amount}`).toMatch(new RegExp(`^${BRL.source}$`));
  expect(text, what).not.toMatch(/\b\d+\.\d{1,2}\s?%|\d{4,}\.\d/);
  const times = await page.evaluate<string[]>(
    `[...document.querySelectorAll('time')].map((t) => t.textContent)`,
  );
  for (const time of times) expect(time, what).toMatch(DATE_STYLE);
  return text;
}

const gateway = () => new Gateway((request) => fetch(request), ui.runtime.url, ADMIN);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function onboard(gw: Gateway, name: string): Promise<ClientSession> {
  const res = await gw.admin('onboard', 'POST', '/admin/clients', { name, partners: [BETA] }, [201]);
  return new ClientSession(gw, res.body as Onboarded);
}

async function analyzerState(gw: Gateway) {
  return (await gw.admin('analyzer', 'GET', '/admin/health/analyzer', undefined, [200])).body;
}

/** Imports through the operator API and waits until the analyzer has taken all of them. */
async function importObservations(gw: Gateway, observations: unknown[]): Promise<void> {
  const before = await analyzerState(gw);
  for (let i = 0; i < observations.length; i += 250) {
    const observationsChunk = observations.slice(i, i + 250);
    await gw.admin(
      'import',
      'POST',
      '/admin/health/observations',
      { observations: observationsChunk },
      [202],
    );
  }
  await until(
    'the analyzer to take the imported observations',
    () => analyzerState(gw),
    (s) => s.accepted - before.accepted >= observations.length,
  );
}

async function makeIncident(gw: Gateway, affected: ClientSession, peer: ClientSession): Promise<number> {
  const world = worldWith(affected.client.clientId, 10);
  const run = crypto.randomUUID();
  // 1. Three days of history up to two hours ago: the analyzer bootstraps from it.
  const historyEnd = windowStart(Date.now()) - 2 * HOUR;
  await importObservations(
    gw,
    withIds(generateArray({ world, seed: 11, from: historyEnd - 3 * DAY, to: historyEnd }), `${run}:h`),
  );
  const afterHistory = await analyzerState(gw);
  expect(afterHistory.bootstrapping).toBe(true);
  // 2. The operator's fault on Beta, and real Cash-Outs through it, well inside one window.
  const untilNext = windowStart(Date.now()) + WINDOW_MS - Date.now();
  if (untilNext < 60_000) await sleep(untilNext + 1_000);
  const liveWindow = windowStart(Date.now());
  await gw.admin(
    'fault',
    'POST',
    `/admin/partners/${BETA}/faults`,
    { operation: 'CASH_OUT', failureRate: 0.9, failureCode: 'PROVIDER_UNAVAILABLE', minutes: 2 },
    [201],
  );
  const senders = [...Array(20).fill(affected), ...Array(15).fill(peer)] as ClientSession[];
  const ids = await Promise.all(
    senders.map(async (s, i) => {
      const body = {
        amount: 1,
        externalReference: `console-${run}-${i}`,
        payee: {
          name: 'Ana Beneficiária',
          document: '12345678909',
          destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
        },
      };
      const res = await s.post('cash-out', '/cash-out', body, {
        expect: [202],
        signed: true,
        headers: { 'x-idempotency-key': crypto.randomUUID() },
      });
      return res.body.transactionId as string;
    }),
  );
  const outcomes = await Promise.all(
    ids.map((id, i) =>
      until(
        'the Cash-Out to end COMPLETED or CANCELLED',
        async () => (await senders[i]!.get('get', `/cash-out/${id}`)).body,
        (c) => ['COMPLETED', 'CANCELLED'].includes(c.status),
      ),
    ),
  );
  await gw.admin('clear', 'DELETE', `/admin/partners/${BETA}/faults`, undefined, [204]);
  expect(outcomes.filter((o) => o.status === 'CANCELLED').length).toBeGreaterThanOrEqual(20);
  // Their observations (created + outcome) leave through the ledger outboxes and the queue.
  await until(
    'the analyzer to take the live Cash-Outs’ observations',
    () => analyzerState(gw),
    (s) => s.accepted - afterHistory.accepted >= 2 * ids.length,
  );
  // 3. The rest of the history: Beta failing in the window before the real failures, normal elsewhere.
  const faultFrom = liveWindow - WINDOW_MS;
  const peak = Math.ceil(40 / (5 * dailyShape(faultFrom + WINDOW_MS / 2) * cashOutShare(world, BETA)));
  await importObservations(
    gw,
    withIds(
      [
        ...generateArray({ world, seed: 11, from: historyEnd, to: faultFrom }),
        ...generateArray({
          world: { ...world, peakPerMinute: Math.max(world.peakPerMinute, peak) },
          seed: 11,
          from: faultFrom,
          to: liveWindow,
          faults: [faults.partnerFailure(BETA, 'CASH_OUT', faultFrom, liveWindow, 0.9)],
        }),
      ],
      `${run}:t`,
    ),
  );
  // 4. Close the real failures' window: the second anomalous window in a row.
  await gw.admin(
    'advance',
    'POST',
    '/admin/health/analyzer/advance',
    { until: new Date(liveWindow + WINDOW_MS).toISOString() },
    [200],
  );
  return faultFrom;
}

it('signs in, shows clients, plots an incident from the fault API, redelivers a failed webhook', async () => {
  const gw = gateway();
  const affected = await onboard(gw, 'Apostas Exemplo Ltda');
  const peer = await onboard(gw, 'Carteira Digital Beta S.A.');
  // Limits large enough to need thousands separators.
  await gw.admin(
    'limits',
    'PATCH',
    `/admin/clients/${affected.client.clientId}`,
    { limits: { perTransaction: 250_000.5, daily: 1_000_000, monthly: 12_345_678.91 } },
    [200],
  );
  for (const s of [affected, peer]) {
    const account = s.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    await s.post(
      'deposit',
      `/sandbox/accounts/${account.number}/deposit`,
      { amount: 100 },
      { expect: [200, 201] },
    );
  }
  // A Cash-In whose webhook receiver answers 500: its delivery ends FAILED, waiting for a retry.
  const cashIn = await affected.post(
    'cash-in',
    '/cash-in',
    {
      amount: 12.5,
      externalReference: `pedido-${crypto.randomUUID()}`,
      payer: { name: 'Maria da Silva', document: '12345678909' },
      includeQrCodeImage: false,
      webhookUrl: ui.receiver.url,
    },
    { expect: [201], headers: { 'x-idempotency-key': crypto.randomUUID() } },
  );
  const deliveries = `/admin/clients/${affected.client.clientId}/webhook-deliveries`;
  const failed: any[] = await until(
    'the Cash-In’s webhook delivery to be FAILED',
    async () => (await gw.admin('list', 'GET', `${deliveries}?status=FAILED`, undefined, [200])).body.items,
    (items: any[]) => items.length === 1,
  );
  expect(failed[0].aggregateId).toBe(cashIn.body.transactionId);
  const faultFrom = await makeIncident(gw, affected, peer);
  const incidents = (await affected.get('incidents', '/health/pix/incidents')).body.items as any[];
  const incident = incidents.find((i) => i.origin.type === 'BANKING_PARTNER' && i.origin.id === BETA);
  expect(incident, JSON.stringify(incidents)).toBeDefined();
  expect(Date.parse(incident.startedAt)).toBe(faultFrom);

  const page = await ui.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, ui.runtime.url);
  await expect.poll(() => page.textContent('#clients')).toContain('Apostas Exemplo Ltda');
  // uPlot drew Beta's Cash-Out plot with the incident band on it.
  const chart = page.locator(`.chart[data-chart="partner:${BETA}:CASH_OUT"]`);
  await chart.waitFor();
  await expect.poll(() => chart.getAttribute('data-rendered')).toBe('true');
  expect(Number(await chart.getAttribute('data-incidents'))).toBeGreaterThanOrEqual(1);
  expect(Number(await chart.getAttribute('data-drawn-bands'))).toBeGreaterThanOrEqual(1);
  // The console's own stylesheet applied (served as text by the Worker, allowed by its CSP).
  expect(
    await page.evaluate<string>('getComputedStyle(document.querySelector(".top")).backgroundColor'),
  ).toBe('rgb(15, 23, 42)');
  expect(await chart.locator('canvas').count()).toBe(1);
  expect(await page.textContent(`#incident-${incident.incidentId}`)).toContain('BANKING_PARTNER');
  // Its times read like the plot's axis: São Paulo, 24 h, labelled BRT. The browser's own
  // America/Sao_Paulo clock (what the axis formats with) agrees to the second; no UTC text is left.
  const started = page.locator(`#incident-${incident.incidentId} time`).first();
  expect(await started.getAttribute('datetime')).toBe(new Date(faultFrom).toISOString());
  const zoned = await page.evaluate<string>(
    `(() => { const p = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(${faultFrom})).map((x) => [x.type, x.value])); return p.day + '/' + p.month + '/' + p.year + ' ' + p.hour + ':' + p.minute + ':' + p.second + ' BRT'; })()`,
  );
  expect(await started.textContent()).toBe(zoned);
  expect(await page.textContent('#incidents')).not.toMatch(/\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z/);
  // The summary speaks the same clock as the times under it.
  expect(await page.textContent(`#incident-${incident.incidentId}`)).not.toMatch(/\bUTC\b/);
  // One language: the operator reads the incident in English; the Portuguese summary clients read is not on the page.
  expect(incident.summary).toMatch(PORTUGUESE);
  expect(await page.textContent(`#incident-${incident.incidentId}`)).toContain('at banking partner');
  expect(await page.textContent('body')).not.toContain(incident.summary);
  expect(await page.textContent('body')).not.toMatch(PORTUGUESE);
  // What needs the operator comes first: the open incident above every client and plot.
  const top = async (selector: string) => (await page.locator(selector).boundingBox())!.y;
  expect(await top('#incidents')).toBeLessThan(await top('#clients'));
  expect(await top('#incidents')).toBeLessThan(await top('#health'));
  expect(await top('#incidents')).toBeLessThan(900);
  const dashboardText = await readsBrazilian(page, 'dashboard');
  expect(dashboardText).toContain(
    'per transaction R$ 250.000,50 · daily R$ 1.000.000,00 · monthly R$ 12.345.678,91',
  );
  // The legend shows the latest window without a hover, and the rate says out of how many.
  const legend = JSON.parse((await chart.getAttribute('data-legend')) ?? '[]') as string[];
  expect(legend[0], JSON.stringify(legend)).toMatch(DATE_STYLE);
  expect(
    legend.slice(1).every((v) => v !== '—'),
    JSON.stringify(legend),
  ).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, 'dashboard.png'), fullPage: true });
  await chart.screenshot({ path: path.join(SHOTS, 'beta-cash-out-incident.png') });

  // Redeliver the failed webhook: the receiver is fixed first, so the redelivery succeeds.
  ui.receiver.fix();
  await page.goto(`${ui.runtime.url}/admin/console?client=${affected.client.clientId}`);
  const row = page.locator(`tr[data-event-id="${failed[0].eventId}"]`);
  expect(await row.getAttribute('data-status')).toBe('FAILED');
  expect(await row.locator('td[data-label="When"] time').textContent()).toMatch(DATE_STYLE);
  await readsBrazilian(page, 'client view');
  await Promise.all([page.waitForURL(/notice=redelivered/), row.locator('button').click()]);
  await expect.poll(() => page.textContent('.notice')).toContain('queued again');
  await until(
    'the redelivered webhook to be DELIVERED',
    async () =>
      (
        await gw.admin(
          'list',
          'GET',
          `${deliveries}?aggregateId=${cashIn.body.transactionId}`,
          undefined,
          [200],
        )
      ).body.items,
    (items: any[]) => items.some((d) => d.eventId === failed[0].eventId && d.status === 'DELIVERED'),
  );
  await page.screenshot({ path: path.join(SHOTS, 'redelivered.png'), fullPage: true });

  // Readable on a phone: one column, nothing wider than the screen.
  const phone = await ui.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${ui.runtime.url}/admin/console`);
  await phone.locator('.chart[data-rendered="true"]').first().waitFor();
  // A string, evaluated in the page: this file is type-checked without the DOM library.
  const overflow = await phone.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(0);
  // Each table row is a card on a phone: every visible cell shows its label above its value.
  const unlabelled = await phone.evaluate<string[]>(
    `[...document.querySelectorAll('.scroll td')].filter((td) => td.offsetParent && !td.classList.contains('actions'))
      .filter((td) => !getComputedStyle(td, '::before').content.replace(/^none$|"/g, '')).map((td) => td.outerHTML.slice(0, 120))`,
  );
  expect(unlabelled).toEqual([]);
  expect((await phone.locator('#incidents').boundingBox())!.y).toBeLessThan(844);
  // The Books page reads the same way.
  await phone.goto(`${ui.runtime.url}/admin/console/books`);
  await readsBrazilian(phone, 'books');
  await phone.screenshot({ path: path.join(SHOTS, 'books-phone.png'), fullPage: true });
  await phone.goto(`${ui.runtime.url}/admin/console?client=${affected.client.clientId}`);
  await phone.screenshot({ path: path.join(SHOTS, 'phone.png'), fullPage: true });
  for (const name of ['dashboard.png', 'beta-cash-out-incident.png', 'redelivered.png', 'phone.png']) {
    console.log(`console screenshot: ${path.relative(ROOT, path.join(SHOTS, name))}`);
  }
}, 600_000);
