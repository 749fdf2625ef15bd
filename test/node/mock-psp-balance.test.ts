/**
 * The local mock PSP (`npm run mock:psp`) keeps one account whose balance follows its own books:
 * payments in, devolutions and payouts out (a refused payout gives its money back). Before, it
 * answered 0.00 whatever happened, and the first daily reconciliation after declaring it reported
 * a false BALANCE break. `GET /__control/balance` reads it; `POST` overrides it (docs/operating.md).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockPsp, startMockPsp } from '../support/mock-psp-server';

let psp: MockPsp;
beforeAll(async () => {
  psp = await startMockPsp(0);
});
afterAll(async () => {
  await psp?.close();
});

async function control(name: string, body?: unknown): Promise<any> {
  const res = await fetch(`${psp.url}/__control/${name}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body !== undefined && {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
  });
  expect(res.status).toBe(200);
  return res.json();
}
const saldo = async () => (await control('balance')).saldo as string;

it('answers the balance its books give: in, devolutions and payouts out, refusals back', async () => {
  expect(await saldo()).toBe('0.00');
  const e2e = 'E09089356202611281200MOCKBAL0001';
  await control('receive', { endToEndId: e2e, valor: '150.00' });
  expect(await saldo()).toBe('150.00');
  await control('return', { endToEndId: e2e, id: 'D1MOCKBAL', valor: '50.05', natureza: 'MED_FRAUDE' });
  expect(await saldo()).toBe('99.95');
  const idEnvio = 'mockbalancepayout0001';
  await control('sent', { idEnvio, valor: '30.10', at: new Date().toISOString() });
  expect(await saldo()).toBe('69.85');
  await control('alter-payout', { transactionId: idEnvio, status: 'NAO_REALIZADO' });
  expect(await saldo()).toBe('99.95');
  // An explicit balance overrides the books until it is cleared.
  await control('balance', { saldo: '5.00' });
  expect(await saldo()).toBe('5.00');
  await control('balance', { saldo: null });
  expect(await saldo()).toBe('99.95');
});
