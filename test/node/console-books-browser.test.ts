/**
 * The console's Books page (unapplied receipts and daily reconciliation reports) in a real browser
 * (Debian's Chromium, playwright-core) against the real runtime over HTTP: reached from the header
 * after signing in, styled by the console's own stylesheet under its CSP, readable on a phone. The
 * runtime declares no real partner, so both lists are empty here; the rows themselves are asserted
 * in the Workers tests (test/partners/unapplied-receipts.test.ts, daily-reconciliation.test.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../../runtime/local-runtime.mjs';
import { startTestRuntime } from './support/runtime';

const ADMIN = 'dev-admin-token';
const SHOTS = path.join(ROOT, 'test-artifacts', 'console');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
let browser: Browser;
const work = mkdtempSync(path.join(tmpdir(), 'connectpsp-books-'));

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

it('shows unapplied receipts and reconciliation reports to a signed-in operator, under the CSP', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const violations: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') violations.push(m.text());
  });
  // Without a session the page is the sign-in.
  await page.goto(`${runtime.url}/admin/console/books`);
  await expect.poll(() => page.url()).toMatch(/\/admin\/console\/?$/);
  await page.fill('input[name="token"]', ADMIN);
  await Promise.all([page.waitForURL(/\/admin\/console$/), page.click('button[type="submit"]')]);
  await Promise.all([page.waitForURL(/\/admin\/console\/books$/), page.click('header a[href$="/books"]')]);
  expect(await page.textContent('#unapplied h2')).toBe('Unapplied receipts');
  expect(await page.textContent('#unapplied')).toContain('None.');
  expect(await page.textContent('#reconciliation h2')).toBe('Daily reconciliation');
  expect(await page.textContent('#reconciliation')).toContain('No day checked yet.');
  await Promise.all([page.waitForURL(/status=FAILED/), page.click('#unapplied a[href*="status=FAILED"]')]);
  expect(await page.getAttribute('#unapplied a[href*="status=FAILED"]', 'aria-current')).toBe('page');
  expect(
    await page.evaluate<string>('getComputedStyle(document.querySelector(".top")).backgroundColor'),
  ).toBe('rgb(15, 23, 42)');
  await page.screenshot({ path: path.join(SHOTS, 'books.png'), fullPage: true });

  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${runtime.url}/admin/console/books`);
  expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  await phone.screenshot({ path: path.join(SHOTS, 'books-phone.png'), fullPage: true });
  expect(violations).toEqual([]);
}, 120_000);
