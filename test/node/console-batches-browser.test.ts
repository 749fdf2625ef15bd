/**
 * The console's Cash-Out batches view in a real browser (Debian's Chromium driven by
 * playwright-core) against the real runtime over HTTP: a signed batch of 3 sent through the API
 * completes, and the selected client's view shows it with its items counted by status.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { ClientSession, Gateway, type Onboarded } from '../../scripts/soak/api';
import { startTestRuntime } from './support/runtime';

const ADMIN = 'dev-admin-token';
const SHOTS = path.join(ROOT, 'test-artifacts', 'console');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
let browser: Browser;
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-console-batches-'));

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
  mkdirSync(SHOTS, { recursive: true });
  runtime = await startTestRuntime(work);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await runtime?.dispose();
  rmSync(work, { recursive: true, force: true });
});

it('shows a completed batch of 3 on the client view, counted by status', async () => {
  const gw = new Gateway((request) => fetch(request), runtime.url, ADMIN);
  const onboarded = await gw.admin('onboard', 'POST', '/admin/clients', { name: 'Apostas Lote Ltda' }, [201]);
  const session = new ClientSession(gw, onboarded.body as Onboarded);
  const account = session.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
  await session.post(
    'deposit',
    `/sandbox/accounts/${account.number}/deposit`,
    { amount: 100 },
    { expect: [200, 201] },
  );
  const items = [10, 20, 30.5].map((amount, i) => ({
    amount,
    externalReference: `premio-${crypto.randomUUID()}-${i}`,
    payee: {
      name: 'Ganhador',
      document: '12345678909',
      destination: { type: 'PIX', pixKeyType: 'EVP', pixKey: crypto.randomUUID() },
    },
  }));
  const accepted = await session.post('batch', '/cash-out/batch', { items }, { expect: [202], signed: true });
  const batchId = accepted.body.batchId as string;
  const deadline = Date.now() + 30_000;
  while ((await session.get('batch', `/cash-out/batch/${batchId}`)).body.byStatus.COMPLETED !== 3) {
    if (Date.now() > deadline) throw new Error('the batch did not complete');
    await new Promise((r) => setTimeout(r, 250));
  }

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${runtime.url}/admin/console`);
  await page.fill('input[name="token"]', ADMIN);
  await Promise.all([page.waitForURL(/\/admin\/console$/), page.click('button[type="submit"]')]);
  await page.goto(`${runtime.url}/admin/console?client=${session.client.clientId}#batches`);
  const row = page.locator(`#batches tr[data-batch-id="${batchId}"]`);
  await expect.poll(() => row.count()).toBe(1);
  expect(await row.locator('td[data-status="COMPLETED"]').textContent()).toBe('3');
  expect(await row.locator('td[data-status="PROCESSING"]').textContent()).toBe('0');
  expect(await row.textContent()).toContain('R$ 60,50');
  expect(await row.isVisible()).toBe(true);
  await page.locator('#batches').screenshot({ path: path.join(SHOTS, 'batches.png') });

  // On a phone the row is a card: every value under its label (Items 3, Amount R$ 60,50, COMPLETED 3…).
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${runtime.url}/admin/console?client=${session.client.clientId}#batches`);
  const cards = await phone.evaluate<[string, string][]>(
    `[...document.querySelectorAll('#batches tr[data-batch-id="${batchId}"] td')].map((td) => [getComputedStyle(td, '::before').content, td.textContent])`,
  );
  expect(cards).toContainEqual(['"Items"', '3']);
  expect(cards).toContainEqual(['"Amount"', 'R$ 60,50']);
  expect(cards).toContainEqual(['"COMPLETED"', '3']);
  for (const [label] of cards) expect(label).not.toMatch(/^(none|normal|"")$/);
  await phone.locator('#batches').screenshot({ path: path.join(SHOTS, 'batches-phone.png') });
}, 120_000);
