/**
 * The console's Books page (unapplied receipts and daily reconciliation reports) in a real browser
 * (Debian's Chromium, playwright-core) against the real runtime over HTTP: reached from the header
 * after signing in, styled by the console's own stylesheet under its CSP, readable on a phone. The
 * runtime declares no real partner, so both lists are empty here; the rows themselves are asserted
 * in the Workers tests (test/partners/unapplied-receipts.test.ts, daily-reconciliation.test.ts).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { ADMIN, consoleInBrowser, SHOTS } from './support/browser';

const ui = consoleInBrowser('books');

it('shows unapplied receipts and reconciliation reports to a signed-in operator, under the CSP', async () => {
  const { runtime, browser } = ui;
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
});
