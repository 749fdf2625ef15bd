/** Account helpers: statements, balances, deposits and rebalances through the API. */
import { expect } from 'vitest';
import type { StatementItem } from '../../src/domain/statement';
import type { Integrator } from './harness';

export type { StatementItem };

export interface StatementPage {
  account: { number: string; branch: string; type: string; bank: { ispb: string; name: string } };
  period: { from: string; to: string; order: 'asc' | 'desc' };
  items: StatementItem[];
  nextCursor?: string;
  previousCursor?: string;
}

export const BRT_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-03:00$/;
export const FAR_TO = '2100-12-31';

export function accountOf(api: Integrator, type: 'TRANSACTIONAL' | 'PROPRIETARY', partner = 0) {
  const ispbs = [...new Set(api.client.accounts.map((a) => a.bank.ispb))];
  const found = api.client.accounts.find((a) => a.type === type && a.bank.ispb === ispbs[partner]);
  if (!found) throw new Error(`no ${type} account at partner #${partner}`);
  return found;
}

export async function deposit(api: Integrator, number: string, amount: number) {
  const res = await api.post(`/sandbox/accounts/${number}/deposit`, { amount });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { entry: StatementItem; balance: number; available: number };
}

export async function statementPage(api: Integrator, number: string, query: string): Promise<StatementPage> {
  const res = await api.get(`/account/${number}/statement?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as StatementPage;
}

/** Every page of a walk from the first page, following nextCursor. */
export async function walkStatement(
  api: Integrator,
  number: string,
  { order = 'asc', limit = 1000, from = api.client.statementStartDate, to = FAR_TO } = {},
): Promise<StatementPage[]> {
  const base = `from=${from}&to=${to}&order=${order}&limit=${limit}`;
  const pages = [await statementPage(api, number, base)];
  for (;;) {
    const next = pages.at(-1)!.nextCursor;
    if (!next) return pages;
    pages.push(await statementPage(api, number, `${base}&cursor=${encodeURIComponent(next)}`));
  }
}

export async function fullStatement(api: Integrator, number: string): Promise<StatementItem[]> {
  return (await walkStatement(api, number)).flatMap((p) => p.items);
}

export interface BalanceBody {
  currency: string;
  asOf: string;
  totals: { transactional: number; proprietary: number; total: number };
  partners: {
    ispb: string;
    bank: string;
    accounts: {
      number: string;
      branch: string;
      type: string;
      balance: number;
      available?: number;
      blocked?: number;
    }[];
  }[];
}

export async function getBalance(api: Integrator, query = ''): Promise<BalanceBody> {
  const res = await api.get(`/account/balance${query ? `?${query}` : ''}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as BalanceBody;
}

export function balanceOf(body: BalanceBody, number: string) {
  const account = body.partners.flatMap((p) => p.accounts).find((a) => a.number === number);
  if (!account) throw new Error(`account ${number} missing from the balance`);
  return account;
}

export function rebalance(
  api: Integrator,
  direction: 'top-up' | 'sweep',
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return api.signedPost(`/account/rebalance/${direction}`, body, headers);
}

/** Integer centavos of a JSON amount (amounts print exactly as cents / 100). */
export const cents = (amount: number) => Math.round(amount * 100);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
