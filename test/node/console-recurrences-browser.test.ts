/**
 * The console's Pix Automático view in a real browser (Debian's Chromium driven by playwright-core)
 * against the real runtime over HTTP: the selected client's recurrences with their state, amount
 * rule, frequency and next charge (due date and the day its window opens), in pt-BR money and the
 * console's date style.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { ClientSession, Gateway, type Onboarded } from '../../scripts/soak/api';
import { ADMIN, consoleInBrowser, SHOTS, signIn } from './support/browser';

const ui = consoleInBrowser('console-recurrences');

const payer = { name: 'Maria da Silva', document: '12345678909' };

it("shows each recurrence's state, amount rule, frequency and next charge", async () => {
  const { runtime, browser } = ui;
  const gw = new Gateway((request) => fetch(request), runtime.url, ADMIN);
  const onboarded = await gw.admin(
    'onboard',
    'POST',
    '/admin/clients',
    { name: 'Clube Assinaturas Ltda' },
    [201],
  );
  const session = new ClientSession(gw, onboarded.body as Onboarded);
  const create = async (body: Record<string, unknown>) =>
    (
      await session.post(
        'recurrence',
        '/recurrences',
        { contract: 'PLANO-42', payer, ...body },
        { expect: [201] },
      )
    ).body.recurrenceId as string;
  const monthly = await create({
    externalReference: 'assinatura-mensal',
    frequency: 'MONTHLY',
    startDate: '2027-01-31',
    amount: 29.9,
    retryPolicy: 'THREE_IN_SEVEN_DAYS',
  });
  await session.post('approve', `/sandbox/recurrences/${monthly}/approve`, {}, { expect: [200] });
  const variable = await create({
    externalReference: 'energia',
    frequency: 'QUARTERLY',
    startDate: '2027-03-10',
    minimumAmount: 10,
  });
  await session.post(
    'approve',
    `/sandbox/recurrences/${variable}/approve`,
    { payerMaximumAmount: 1250.5 },
    { expect: [200] },
  );
  const waiting = await create({
    externalReference: 'anual',
    frequency: 'ANNUAL',
    startDate: '2027-06-01',
    amount: 1200,
  });
  const cancelled = await create({
    externalReference: 'semanal',
    frequency: 'WEEKLY',
    startDate: '2027-01-04',
    amount: 5,
  });
  await session.post('cancel', `/sandbox/recurrences/${cancelled}/cancel`, {}, { expect: [200] });

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, runtime.url);
  await page.goto(`${runtime.url}/admin/console?client=${session.client.clientId}#recurrences`);
  const cells = async (id: string) =>
    page.evaluate<Record<string, string>>(
      `Object.fromEntries([...document.querySelectorAll('#recurrences tr[data-recurrence-id="${id}"] td[data-field]')].map((td) => [td.dataset.field, td.textContent]))`,
    );
  await expect.poll(() => page.locator('#recurrences tr[data-recurrence-id]').count()).toBe(4);
  expect(await cells(monthly)).toEqual({
    status: 'APPROVED',
    amount: 'R$ 29,90 fixed',
    frequency: 'MONTHLY · retries',
    'next-due': '31/01/2027',
    'window-opens': '21/01/2027',
  });
  expect(await cells(variable)).toEqual({
    status: 'APPROVED',
    amount: "variable, from R$ 10,00, payer's maximum R$ 1.250,50",
    frequency: 'QUARTERLY',
    'next-due': '10/03/2027',
    'window-opens': '28/02/2027',
  });
  expect(await cells(waiting)).toMatchObject({
    status: 'WAITING_AUTHORIZATION',
    amount: 'R$ 1.200,00 fixed',
    'next-due': '—',
  });
  expect(await cells(cancelled)).toMatchObject({
    status: 'CANCELLED by PAYER',
    frequency: 'WEEKLY',
    'next-due': '—',
  });
  // Newest first.
  const order = await page.evaluate<string[]>(
    `[...document.querySelectorAll('#recurrences tr[data-recurrence-id]')].map((tr) => tr.dataset.recurrenceId)`,
  );
  expect(order).toEqual([cancelled, waiting, variable, monthly]);
  expect(await page.locator('#recurrences').isVisible()).toBe(true);
  await page.locator('#recurrences').screenshot({ path: path.join(SHOTS, 'recurrences.png') });
});
