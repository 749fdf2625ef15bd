/**
 * Real-partner money tests' helpers: the fake PSP's books for a set of payments, the client's books
 * read through the API (across the archive), and the object's scheduled work driven by hand.
 */
import { expect } from 'vitest';
import { accountOf, balanceOf, getBalance, type StatementItem } from './account';
import { admin, type Integrator } from './harness';
import { tasks } from './ledger-reads';
import { setTasksDue, wakeIn } from './ledger-writes';
import { psp, statementOf } from './partner-psp';

export async function archiveNow(api: Integrator): Promise<number> {
  const res = await admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
    before: new Date().toISOString(),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { archivedTransactions: number }).archivedTransactions;
}

/** Makes the client's tasks of this kind due now and wakes the object (its alarm runs them). */
export async function runTasksNow(api: Integrator, kind: string): Promise<void> {
  await setTasksDue(api.client.clientId, { kind }, Date.now());
  await wakeIn(api.client.clientId, 20);
}

export const tasksOf = (api: Integrator, kind: string) =>
  tasks(api.client.clientId, kind).then((rows) => rows.map((t) => ({ id: t.id, due_at: t.dueAt })));

export const transactional = async (api: Integrator) =>
  balanceOf(await getBalance(api), accountOf(api, 'TRANSACTIONAL').number);

interface PspDevolution {
  id: string;
  rtrId: string;
  valor: string;
  status: string;
}

const cents = (v: string | number) => Math.round(Number(v) * 100);

/** What the PSP says moved for these payments: each Pix received, each devolution it made. */
export async function pspFacts(e2es: string[]) {
  const facts: { type: string; payment: string; ids: string[]; cents: number }[] = [];
  for (const e2e of e2es) {
    const pix = await psp(`pix/${e2e}`);
    if (!pix) continue;
    facts.push({ type: 'PIX_IN', payment: e2e, ids: [e2e], cents: cents(pix.valor) });
    for (const d of pix.devolucoes as PspDevolution[])
      if (d.status === 'DEVOLVIDO')
        facts.push({ type: 'PIX_REFUND_OUT', payment: e2e, ids: [d.id, d.rtrId], cents: cents(d.valor) });
  }
  return facts;
}

/** Received minus devolved at the PSP, in centavos. */
export async function pspCents(...e2es: string[]): Promise<number> {
  return (await pspFacts(e2es)).reduce((s, f) => s + (f.type === 'PIX_IN' ? f.cents : -f.cents), 0);
}

/**
 * The client's statement (hot and archived) is the PSP's books for these payments, entry by entry
 * and centavo by centavo, and its balance their sum with nothing held.
 */
export async function expectPspBooks(api: Integrator, e2es: string[]): Promise<void> {
  const facts = await pspFacts(e2es);
  const statement: StatementItem[] = await statementOf(api);
  const unmatched = [...facts];
  for (const e of statement) {
    const i = unmatched.findIndex(
      (f) =>
        f.type === e.type &&
        f.cents === cents(e.amount) &&
        f.ids.includes(e.endToEndId as string) &&
        (f.type === 'PIX_IN' || e.originalEndToEndId === f.payment),
    );
    expect(i, `${e.type} ${e.amount} ${e.endToEndId} is in the PSP's books once`).toBeGreaterThanOrEqual(0);
    unmatched.splice(i, 1);
  }
  expect(unmatched, "the PSP's facts not booked").toEqual([]);
  const total = facts.reduce((s, f) => s + (f.type === 'PIX_IN' ? f.cents : -f.cents), 0);
  const account = await transactional(api);
  expect(cents(account.balance), 'balance = PSP books').toBe(total);
  expect(cents(account.available ?? account.balance), 'nothing held').toBe(total);
}
