/**
 * Helpers of the real-partner tests: the fake API Pix PSP's controls (test/setup/fake-psp.ts), the
 * partner's callbacks posted through real HTTP, and a client onboarded onto that partner.
 */
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { sweepPartnerInfractions } from '../../src/cron/partner-infractions';
import { accountOf, fullStatement } from './account';
import { createCashIn } from './cash-in';
import { FAKE_PSP_ISPB, FAKE_REC_PSP_ISPB, fakePspEnvironment } from './fake-psp-env';
import { call, Integrator } from './harness';

export const SECRET = fakePspEnvironment('')[`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`] as string;
export const CERT = {
  certPresented: '1',
  certVerified: 'SUCCESS',
  certRevoked: '0',
  certSubjectDN: 'CN=webhooks.psp.test,O=PSP de Testes S.A.,C=BR',
  certIssuerDN: 'CN=PSP de Testes CA,O=PSP de Testes S.A.,C=BR',
};

export async function psp(path: string, body?: unknown): Promise<any> {
  const res = await env.TEST_PSP_CERT.fetch(`https://psp.test/__control/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

let serial = 0;
/** An end-to-end id as the payer's bank (Itaú) would make it. */
export const newE2e = () =>
  `E60701190202611251200${String(++serial).padStart(3, '0')}${crypto.randomUUID().slice(0, 8)}`;

export function postCallback(body: unknown, auth: { secret?: string; cert?: Record<string, string> } = {}) {
  const path =
    auth.secret === undefined
      ? `/partners/${FAKE_PSP_ISPB}/webhook/pix`
      : `/partners/${FAKE_PSP_ISPB}/webhook/${auth.secret}/pix`;
  return call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(auth.cert && { cf: { tlsClientAuth: auth.cert } }),
  } as RequestInit);
}

/** The callback the PSP would post for these Pix, as the partner has them now. */
export async function callback(
  ...endToEndIds: string[]
): Promise<{ endToEndId: string; outcomes: string[] }[]> {
  const res = await postCallback(await psp('callback', { endToEndIds }), { secret: SECRET });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { pix: { endToEndId: string; outcomes: string[] }[] }).pix;
}

export async function paidAtPsp(api: Integrator, amount: number, extra: Record<string, unknown> = {}) {
  const cashIn = await createCashIn(api, { amount, ...extra });
  const e2e = newE2e();
  await psp('pay', { txid: cashIn.transactionId, endToEndId: e2e });
  return { cashIn, e2e };
}

/** A Cash-In paid at the PSP and booked by the partner's callback (it answers `paid`). */
export async function paidByCallback(api: Integrator, amount: number) {
  const paid = await paidAtPsp(api, amount);
  expect((await callback(paid.e2e))[0]?.outcomes).toEqual(['paid']);
  return paid;
}

/** One run of the cron's MED infraction sweep over the declared partners. */
export const sweepInfractions = () => sweepPartnerInfractions(env as unknown as Env);

export const onboard = () => Integrator.create({ partners: [FAKE_PSP_ISPB] });
export const statementOf = (api: Integrator) => fullStatement(api, accountOf(api, 'TRANSACTIONAL').number);

/** The second fake PSP's controls: the partner offering Pix Automático (fake-psp-env.ts). */
export async function recPsp(path: string, body?: unknown): Promise<any> {
  const res = await env.TEST_REC_PSP_CERT.fetch(`https://psp.test/__control/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

export const onboardRec = () => Integrator.create({ partners: [FAKE_REC_PSP_ISPB] });

const REC_SECRET = fakePspEnvironment('')[`PARTNER_${FAKE_REC_PSP_ISPB}_WEBHOOK_SECRET`] as string;

/** The `rec` / `cobr` callback the Pix Automático PSP would post for these ids now; its outcomes. */
export async function recurrenceCallback(kind: 'rec' | 'cobr', ...ids: string[]): Promise<string[]> {
  const body = await recPsp(`${kind}-callback`, kind === 'rec' ? { idRecs: ids } : { txids: ids });
  const res = await call(`/partners/${FAKE_REC_PSP_ISPB}/webhook/${REC_SECRET}/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const answer = (await res.json()) as Record<string, { outcomes: string[] }[]>;
  return (answer[kind === 'rec' ? 'recs' : 'cobsr'] ?? []).flatMap((i) => i.outcomes);
}
