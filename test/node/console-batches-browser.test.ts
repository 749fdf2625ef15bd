/**
 * The console's Cash-Out batches view in a real browser (Debian's Chromium driven by
 * playwright-core) against the real runtime over HTTP: a signed batch of 3 sent through the API
 * completes, and the selected client's view shows it with its items counted by status.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { ClientSession, Gateway, type Onboarded } from '../../scripts/soak/api';
import { waitFor } from '../support/processes';
import { ADMIN, consoleInBrowser, SHOTS, signIn } from './support/browser';

const ui = consoleInBrowser('console-batches');

it('shows a completed batch of 3 on the client view, counted by status', async () => {
  const { runtime, browser } = ui;
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
  let byStatus: unknown;
  await waitFor(
    'the batch of 3 COMPLETED',
    async () => {
      byStatus = (await session.get('batch', `/cash-out/batch/${batchId}`)).body.byStatus;
      return (byStatus as { COMPLETED: number }).COMPLETED === 3 || undefined;
    },
    { ms: 120_000, last: () => byStatus },
  );

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, runtime.url);
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
});
