/**
 * The operator's view of MED disputes across every client's ledger (GET /admin/disputes, the
 * console): each ledger lists its own (ledger/cash-in/cash-in-store.ts disputePage), newest first;
 * the pages are merged by when the dispute opened and cut to the limit.
 */

import { clientIdsAfter } from '../src/db/clients';
import type { CashInView } from '../src/domain/cash-in';
import { ledgerOf } from './stubs';

export interface DisputeQuery {
  from: number;
  to: number;
  limit: number;
  status?: string;
  clientId?: string;
  /** The settling partner's ISPB. */
  ispb?: string;
}

export interface ClientDispute {
  clientId: string;
  cashIn: CashInView;
}

const CONCURRENCY = 25;

async function clientDisputes(env: Env, clientId: string, q: DisputeQuery): Promise<ClientDispute[]> {
  const page = await ledgerOf(env, clientId)
    .listDisputes({ from: q.from, to: q.to, limit: q.limit, order: 'desc' }, q.status)
    .catch(() => ({ items: '' })); // a client whose onboarding never finished has no ledger yet
  const items = JSON.parse(`[${page.items}]`) as CashInView[];
  return items
    .filter((c) => q.ispb === undefined || c.settlement?.ispb === q.ispb)
    .map((cashIn) => ({ clientId, cashIn }));
}

/** The newest `limit` disputes opened in [from, to] (of one client when `clientId` is given). */
export async function allDisputes(env: Env, q: DisputeQuery): Promise<ClientDispute[]> {
  const found: ClientDispute[] = [];
  if (q.clientId !== undefined) found.push(...(await clientDisputes(env, q.clientId, q)));
  else
    for (let after = ''; ; ) {
      const ids = await clientIdsAfter(env, after, CONCURRENCY);
      if (ids.length === 0) break;
      for (const list of await Promise.all(ids.map((id) => clientDisputes(env, id, q)))) found.push(...list);
      after = ids.at(-1) as string;
    }
  const openedAt = (d: ClientDispute) => Date.parse(d.cashIn.dispute?.openedAt ?? '');
  return found.sort((a, b) => openedAt(b) - openedAt(a)).slice(0, q.limit);
}
