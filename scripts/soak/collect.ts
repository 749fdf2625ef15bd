/**
 * After the traffic: waits until every transaction is final (Cash-Outs and refunds settle on
 * Durable Object alarms), then reads everything the checker needs through the public and operator
 * APIs — GET by id, the Cash-In/Cash-Out list walks, full statement walks, balances, each client's
 * webhook outbox — and the partners' own books through `readPartnerBooks`.
 */

import { FINAL_HISTORIES } from '../../src/domain/money-invariants';
import { present } from '../../src/domain/present';
import type { Gateway, Json } from './api';
import { isFinal } from './plan';
import { FAR_TO } from './scenarios';
import type {
  AccountSnapshot,
  PartnerTransfer,
  Snapshot,
  StatementEntry,
  TrafficLog,
  TxSnapshot,
  TxView,
} from './snapshot';
import type { SoakClient } from './soak-context';

/** The sandbox partners' transfers whose idempotency id is one of `ids`. */
export type PartnerBooks = (ids: string[]) => Promise<PartnerTransfer[]>;

export interface CollectOptions {
  gateway: Gateway;
  clients: SoakClient[];
  log: TrafficLog;
  readPartnerBooks: PartnerBooks;
  concurrency: number;
  finalityTimeoutMs: number;
  progress: (line: string) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** JSON amounts print exactly as centavos / 100. */
const cents = (amount: number) => Math.round(amount * 100);

export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function viewOf(body: Json): TxView {
  return {
    status: body.status,
    amountCents: cents(body.amount),
    ...(body.endToEndId !== undefined && { endToEndId: body.endToEndId }),
    ...(body.originalEndToEndId !== undefined && { originalEndToEndId: body.originalEndToEndId }),
    ...(body.failure?.code !== undefined && { failureCode: body.failure.code }),
    ...(body.reason !== undefined && { reason: body.reason }),
    ...(body.settlement !== undefined && {
      settlement: { ispb: body.settlement.ispb, account: body.settlement.account },
    }),
    ...(typeof body.requestedAt === 'string' && { requestedAtMs: Date.parse(body.requestedAt) }),
    ...(typeof (body.completedAt ?? body.cancelledAt) === 'string' && {
      endedAtMs: Date.parse(body.completedAt ?? body.cancelledAt),
    }),
    readAtMs: Date.now(),
  };
}

/** Every page of a cursor walk (docs/contract.md, Lists, cursors and periods), oldest first. */
export async function walk(c: SoakClient, path: string): Promise<Json[]> {
  const base = `${path}${path.includes('?') ? '&' : '?'}from=${c.statementStartDate}&to=${FAR_TO}&limit=200`;
  const items: Json[] = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await c.session.get(
      'collect',
      cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base,
    );
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  }
  return items;
}

async function waitForFinal(o: CollectOptions, txs: TxSnapshot[]): Promise<void> {
  const byClient = new Map(o.clients.map((c) => [c.clientId, c]));
  const deadline = Date.now() + o.finalityTimeoutMs;
  let pending = txs;
  for (;;) {
    await mapLimit(pending, o.concurrency, async (tx) => {
      const path = `/${tx.kind === 'CASH_IN' ? 'cash-in' : 'cash-out'}/${encodeURIComponent(tx.transactionId)}`;
      tx.view = viewOf(
        (await present(byClient.get(tx.clientId), `client ${tx.clientId}`).session.get('collect', path)).body,
      );
    });
    pending = pending.filter(
      (tx) => !isFinal(tx.kind, present(tx.view, `view of ${tx.transactionId}`).status, tx.expectsRefund),
    );
    if (pending.length === 0 || Date.now() > deadline) return;
    o.progress(`waiting for ${pending.length} transactions to become final`);
    await sleep(500);
  }
}

async function deliveries(o: CollectOptions, clientId: string, query = ''): Promise<Json[]> {
  const items: Json[] = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await o.gateway.admin(
      'collect',
      'GET',
      `/admin/clients/${clientId}/webhook-deliveries?limit=500${query}${cursor ? `&cursor=${cursor}` : ''}`,
      undefined,
      [200],
    );
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  }
  return items;
}

/** Event types per transaction in the order they happened (the list is newest first). */
function eventsByAggregate(items: Json[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of [...items].reverse()) {
    out.set(item.aggregateId, [...(out.get(item.aggregateId) ?? []), item.eventType]);
  }
  return out;
}

/** Outbox events reach the delivery list on the next dispatch alarm: re-read the late ones. */
async function collectEvents(o: CollectOptions, txs: TxSnapshot[]): Promise<void> {
  const perClient = await mapLimit(o.clients, o.concurrency, async (c) =>
    eventsByAggregate(await deliveries(o, c.clientId)),
  );
  const byClient = new Map(o.clients.map((c, i) => [c.clientId, perClient[i]]));
  for (const tx of txs) tx.events = byClient.get(tx.clientId)?.get(tx.transactionId) ?? [];
  const deadline = Date.now() + 20_000;
  const short = (tx: TxSnapshot) =>
    tx.view !== undefined && tx.events.length < (FINAL_HISTORIES[tx.kind][tx.view.status]?.length ?? 0);
  for (let late = txs.filter(short); late.length > 0 && Date.now() < deadline; late = late.filter(short)) {
    await sleep(500);
    await mapLimit(late, o.concurrency, async (tx) => {
      const items = await deliveries(o, tx.clientId, `&aggregateId=${encodeURIComponent(tx.transactionId)}`);
      tx.events = eventsByAggregate(items).get(tx.transactionId) ?? [];
    });
  }
}

async function collectAccounts(o: CollectOptions): Promise<AccountSnapshot[]> {
  const perClient = await mapLimit(o.clients, o.concurrency, async (c) => {
    const balance = (await c.session.get('collect', '/account/balance')).body;
    const balances = new Map<string, Json>(
      (balance.partners as Json[]).flatMap((p) => p.accounts).map((a: Json) => [a.number, a]),
    );
    return mapLimit(c.accounts, o.concurrency, async (account): Promise<AccountSnapshot> => {
      const items = await walk(c, `/account/${account.number}/statement?order=asc`);
      const shown = balances.get(account.number);
      return {
        clientId: c.clientId,
        number: account.number,
        ispb: account.bank.ispb,
        type: account.type,
        statement: items.map(
          (item): StatementEntry => ({
            id: item.id,
            date: item.date,
            direction: item.direction,
            type: item.type,
            ...(item.typeRaw !== undefined && { typeRaw: item.typeRaw }),
            amountCents: cents(item.amount),
            ...(item.balanceAfter !== undefined && { balanceAfterCents: cents(item.balanceAfter) }),
            ...(item.description !== undefined && { description: item.description }),
            ...(item.endToEndId !== undefined && { endToEndId: item.endToEndId }),
            ...(item.originalEndToEndId !== undefined && { originalEndToEndId: item.originalEndToEndId }),
          }),
        ),
        ...(shown !== undefined && { balanceCents: cents(shown.balance) }),
        ...(shown?.available !== undefined && { availableCents: cents(shown.available) }),
      };
    });
  });
  return perClient.flat();
}

export async function collectSnapshot(o: CollectOptions): Promise<Snapshot> {
  const txs: TxSnapshot[] = o.log.transactions.map((tx) => ({ ...tx, listed: [], events: [] }));
  await waitForFinal(o, txs);
  o.progress('reading lists, statements, balances, events and the partners’ books');

  const byId = new Map(txs.map((tx) => [tx.transactionId, tx]));
  const strayListed: Snapshot['strayListed'] = [];
  for (const c of o.clients) {
    for (const kind of ['CASH_IN', 'CASH_OUT'] as const) {
      for (const item of await walk(c, kind === 'CASH_IN' ? '/cash-in' : '/cash-out')) {
        const tx = byId.get(item.transactionId);
        if (tx && tx.clientId === c.clientId && tx.kind === kind) tx.listed.push(item.status);
        else {
          strayListed.push({
            clientId: c.clientId,
            kind,
            transactionId: item.transactionId,
            externalReference: item.externalReference,
          });
        }
      }
    }
  }
  const accounts = await collectAccounts(o);
  await collectEvents(o, txs);

  // Partner-side ids: every Cash-Out's transactionId and every client refund's devolution id.
  const ids = txs
    .filter((tx) => tx.kind === 'CASH_OUT' || (tx.view?.status === 'REFUNDED' && tx.view.endToEndId))
    .map((tx) => (tx.kind === 'CASH_OUT' ? tx.transactionId : (tx.view?.endToEndId as string)));
  const partner = await o.readPartnerBooks(ids);

  return {
    transactions: txs,
    accounts,
    deposits: o.log.deposits,
    rebalances: o.log.rebalances,
    retries: o.log.retries,
    faults: o.log.faults,
    archive: o.log.archive,
    partner,
    strayListed,
    requests: o.gateway.tally.requests,
    unexpected: o.gateway.tally.unexpected,
  };
}
