/** Helpers of the unapplied-receipt and reconciliation tests: the operator's views, read over HTTP. */
import { expect } from 'vitest';
import { waitFor } from './cash-in';
import { FAKE_PSP_ISPB } from './fake-psp-env';
import { ADMIN_TOKEN, admin, BASE, call } from './harness';

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
export async function waitForReturn(endToEndId: string, status: string, timeoutMs = 30_000) {
  return waitFor(
    () => unappliedOf(endToEndId),
    (i) => i?.return.status === status,
    timeoutMs,
  );
}

/** Waits until the PSP has the receipt's devolution (asked for by its return). */
export async function waitForDevolution(psp: (p: string) => Promise<any>, endToEndId: string) {
  const pix = await waitFor(
    () => psp(`pix/${endToEndId}`),
    (p) => (p?.devolucoes ?? []).length > 0,
    15_000,
  );
  return pix.devolucoes as { id: string; status: string; valor: string }[];
}

/** The console's books page as a signed-in operator sees it (HTML). */
export async function consoleBooks(query = ''): Promise<string> {
  const signIn = await call('/admin/console/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE },
    body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
    redirect: 'manual',
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const res = await call(`/admin/console/books${query}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.text();
}
