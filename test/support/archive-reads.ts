/**
 * Every read an archived client must answer byte for byte as before archiving: list pages in both
 * orders walked forward to the end and back again by their cursors, summaries, GET by every id.
 */
import type { Integrator } from './harness';

type Kind = 'cash-in' | 'cash-out';
export type Reads = Map<string, string>;

async function read(api: Integrator, path: string, out: Reads): Promise<Record<string, unknown>> {
  const res = await api.get(path);
  const text = await res.text();
  out.set(path, `${res.status} ${text}`);
  return res.status === 200 ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const q = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** Pages of one list walk: forward by nextCursor to the end, then back by previousCursor to the start. */
export async function walkList(
  api: Integrator,
  list: string,
  from: string,
  to: string,
  order: 'asc' | 'desc',
  limit: number,
  out: Reads,
): Promise<void> {
  let page = await read(api, `${list}?${q({ from, to, order, limit })}`, out);
  for (let i = 0; page.nextCursor && i < 200; i++)
    page = await read(api, `${list}?${q({ from, to, limit, cursor: page.nextCursor as string })}`, out);
  for (let i = 0; page.previousCursor && i < 200; i++)
    page = await read(api, `${list}?${q({ from, to, limit, cursor: page.previousCursor as string })}`, out);
}

/** Lists (both orders, limits 1..3), summaries of every period, and GET of every id. */
export async function allReads(
  api: Integrator,
  kind: Kind,
  periods: [string, string][],
  ids: string[],
): Promise<Reads> {
  const out: Reads = new Map();
  for (const [from, to] of periods) {
    for (const order of ['asc', 'desc'] as const)
      for (const limit of [1, 2, 3]) await walkList(api, `/${kind}`, from, to, order, limit, out);
    await read(api, `/${kind}/summary?${q({ from, to })}`, out);
  }
  for (const id of ids) await read(api, `/${kind}/${encodeURIComponent(id)}`, out);
  return out;
}

/** Statement pages of every account (both orders, walked both ways) and the balance at each instant. */
export async function ledgerReads(
  api: Integrator,
  accounts: string[],
  periods: [string, string][],
  instants: number[],
): Promise<Reads> {
  const out: Reads = new Map();
  for (const number of accounts)
    for (const [from, to] of periods)
      for (const order of ['asc', 'desc'] as const)
        for (const limit of [1, 3])
          await walkList(api, `/account/${number}/statement`, from, to, order, limit, out);
  for (const at of instants)
    await read(api, `/account/balance?${q({ at: new Date(at).toISOString() })}`, out);
  return out;
}

/** The BRT calendar date `days` from today (lists and summaries read dates in America/Sao_Paulo). */
export const brtDate = (days = 0) =>
  new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

/** Periods that cut UTC days (partial edges), cover one whole (running totals) and cut inside a page. */
export function periodsAround(times: number[]): [string, string][] {
  const sorted = [...times].sort((a, b) => a - b);
  const iso = (ms: number) => new Date(ms).toISOString();
  const mid = sorted[Math.floor(sorted.length / 2)] ?? Date.now();
  return [
    [brtDate(), brtDate()],
    [brtDate(-1), brtDate(1)],
    [iso(sorted[1] ?? mid), iso(mid)],
    [iso(mid), iso((sorted.at(-1) ?? mid) + 60_000)],
  ];
}
