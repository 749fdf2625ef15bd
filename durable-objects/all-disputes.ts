/**
 * The operator's view of MED disputes across every client's ledger (GET /admin/disputes, the
 * console): each ledger lists its own (ledger/reads/dispute-queries.ts), newest first; the pages are
 * merged in one order across clients, (openedAt, clientId, seq) descending, and cut to the limit.
 * A cut in that order is where the next page starts: each ledger resumes from it.
 */

import { clientIdsAfter } from '../src/db/clients';
import type { CashInView } from '../src/domain/cash-in';
import type { Position } from '../src/domain/pagination';
import { ledgerOf } from './stubs';

/** Where a page ended: the last dispute listed, in the list's order. */
export interface DisputeCut {
  time: number;
  clientId: string;
  seq: number;
}

export interface DisputeQuery {
  from: number;
  to: number;
  limit: number;
  status?: string;
  clientId?: string;
  /** The settling partner's ISPB. */
  ispb?: string;
  /** Only disputes after this cut (the cursor's). */
  after?: DisputeCut;
}

export interface ClientDispute {
  clientId: string;
  cashIn: CashInView;
}

type Keyed = ClientDispute & { time: number; seq: number };

const CONCURRENCY = 25;

/** Where this client's ledger resumes after the cut: its disputes at the cut's instant come after only below it. */
function positionAfter(clientId: string, cut: DisputeCut): Position {
  const seq = clientId === cut.clientId ? cut.seq : clientId < cut.clientId ? Number.MAX_SAFE_INTEGER : 0;
  return { direction: 'next', time: cut.time, seq };
}

async function clientDisputes(
  env: Env,
  clientId: string,
  q: DisputeQuery,
): Promise<{ items: Keyed[]; more: boolean }> {
  const page = await ledgerOf(env, clientId)
    .listDisputes(
      {
        from: q.from,
        to: q.to,
        limit: q.limit,
        order: 'desc',
        ...(q.after && { position: positionAfter(clientId, q.after) }),
      },
      { ...(q.status !== undefined && { status: q.status }), ...(q.ispb !== undefined && { ispb: q.ispb }) },
    )
    .catch(() => undefined); // a client whose onboarding never finished has no ledger yet
  if (!page) return { items: [], more: false };
  const views = JSON.parse(`[${page.items}]`) as CashInView[];
  return {
    items: views.map((cashIn, i) => ({
      clientId,
      cashIn,
      ...(page.keys[i] as { time: number; seq: number }),
    })),
    more: page.next !== undefined,
  };
}

const newestFirst = (a: Keyed, b: Keyed) =>
  b.time - a.time || (a.clientId < b.clientId ? 1 : a.clientId > b.clientId ? -1 : 0) || b.seq - a.seq;

/** One page: the newest `limit` disputes opened in [from, to] after the cut, and the cut for the next. */
export async function disputesPage(
  env: Env,
  q: DisputeQuery,
): Promise<{ items: ClientDispute[]; next?: DisputeCut }> {
  let found: Keyed[] = [];
  let more = false as boolean;
  const take = (pages: { items: Keyed[]; more: boolean }[]) => {
    for (const page of pages) {
      found.push(...page.items);
      more ||= page.more;
    }
    found.sort(newestFirst);
    if (found.length > q.limit) more = true;
    found = found.slice(0, q.limit);
  };
  if (q.clientId !== undefined) take([await clientDisputes(env, q.clientId, q)]);
  else
    for (let after = ''; ; ) {
      const ids = await clientIdsAfter(env, after, CONCURRENCY);
      if (ids.length === 0) break;
      take(await Promise.all(ids.map((id) => clientDisputes(env, id, q))));
      after = ids.at(-1) as string;
    }
  const items = found.map(({ clientId, cashIn }) => ({ clientId, cashIn }));
  const last = found.at(-1);
  if (!more || !last) return { items };
  return { items, next: { time: last.time, clientId: last.clientId, seq: last.seq } };
}

/** The newest `limit` disputes opened in [from, to] (of one client when `clientId` is given). */
export async function allDisputes(env: Env, q: DisputeQuery): Promise<ClientDispute[]> {
  return (await disputesPage(env, q)).items;
}
