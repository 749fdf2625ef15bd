/**
 * Helpers of the unapplied-receipt and reconciliation tests: the operator's views, read over HTTP,
 * and the setups they share (a return the network refused, client- or partner-held).
 */
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { returnPartnerHeld } from '../../src/cron/partner-unapplied';
import { unappliedNextAt } from '../../src/db/unapplied';
import { consoleCookie } from './console';
import { FAKE_PSP_ISPB } from './fake-psp-env';
import { admin, call } from './harness';
import { callback, newE2e, onboard, paidAtPsp, psp } from './partner-psp';
import { OUTCOME_MS, waitUntil } from './wait';

export interface UnappliedItem {
  id: string;
  ispb: string;
  endToEndId: string;
  txid?: string;
  clientId?: string;
  amount: number;
  receivedAt: string;
  reason: string;
  return: {
    id: string;
    status: string;
    endToEndId?: string;
    returnedAt?: string;
    failure?: string;
    readUntil?: string;
  };
}

/** Every receipt GET /admin/unapplied lists for the fake partner (all pages). */
export async function listUnapplied(query = ''): Promise<UnappliedItem[]> {
  const items: UnappliedItem[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams(query);
    q.set('ispb', FAKE_PSP_ISPB);
    if (cursor) q.set('cursor', cursor);
    const res = await admin(`/admin/unapplied?${q}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const page = (await res.json()) as { items: UnappliedItem[]; nextCursor: string | null };
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

export async function unappliedOf(endToEndId: string): Promise<UnappliedItem | undefined> {
  return (await listUnapplied()).find((i) => i.endToEndId === endToEndId);
}

/** Waits until the receipt's return reaches `status` (the ledger's alarm or the cron moves it). */
export async function waitForReturn(endToEndId: string, status: string, timeoutMs = OUTCOME_MS) {
  return waitUntil(
    () => unappliedOf(endToEndId),
    (i) => i?.return.status === status,
    timeoutMs,
    `the return of unapplied receipt ${endToEndId} to be ${status}`,
  );
}

/** Waits until the PSP has the receipt's devolution (asked for by its return). */
export async function waitForDevolution(psp: (p: string) => Promise<any>, endToEndId: string) {
  const pix = await waitUntil(
    () => psp(`pix/${endToEndId}`),
    (p) => (p?.devolucoes ?? []).length > 0,
    OUTCOME_MS,
    `a devolution of ${endToEndId} at the PSP`,
  );
  return pix.devolucoes as { id: string; status: string; valor: string }[];
}

/** The console's books page as a signed-in operator sees it (HTML). */
export async function consoleBooks(query = ''): Promise<string> {
  const cookie = await consoleCookie();
  const res = await call(`/admin/console/books${query}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

/**
 * A client's charge paid twice at the PSP: the second payment is booked as a DUPLICATE unapplied
 * receipt, its return asked for, and the network refuses the devolution: the return is FAILED.
 */
export async function failedDuplicateReturn(amount: number) {
  const api = await onboard();
  const { cashIn, e2e } = await paidAtPsp(api, amount);
  await callback(e2e);
  const second = newE2e();
  await psp('pay', { txid: cashIn.transactionId, endToEndId: second });
  expect(await callback(second)).toEqual([{ endToEndId: second, outcomes: ['duplicate'] }]);
  const [devolution] = await waitForDevolution(psp, second);
  await psp('devolution', { endToEndId: second, id: devolution?.id, ok: false });
  const failed = await waitForReturn(second, 'FAILED');
  return { api, cashIn, e2e, second, devolution, failed };
}

/** Pix no client can take, held for the payer by the partner, each with its devolution refused: FAILED. */
export async function failedStrayReturns(valor: string, txid: string, count = 1) {
  const strays = Array.from({ length: count }, () => newE2e());
  for (const stray of strays) {
    await psp('receive', { endToEndId: stray, valor, txid });
    expect(await callback(stray)).toEqual([{ endToEndId: stray, outcomes: ['unmatched'] }]);
  }
  await returnPartnerHeld(env);
  const devolutions = [];
  for (const stray of strays) {
    const [devolution] = await waitForDevolution(psp, stray);
    await psp('devolution', { endToEndId: stray, id: devolution?.id, ok: false });
    devolutions.push(devolution);
  }
  await returnPartnerHeld(env, Date.now() + 5_000);
  return { strays, devolutions };
}

/** When a partner-held receipt is next read (its row's next_at in D1, through its store). */
export const nextReadAt = (endToEndId: string) => unappliedNextAt(env, endToEndId);
