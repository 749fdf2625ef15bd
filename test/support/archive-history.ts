/** A client history with every kind of transaction and ledger entry, and all the reads of it (archive tests). */
import { expect } from 'vitest';
import { allReads, brtDate, ledgerReads, periodsAround, type Reads } from './archive-reads';
import { createCashIn, payCashIn } from './cash-in';
import { createCashOut, deposit, getCashOut, magicKey, settled } from './cash-out';
import { admin, type Integrator } from './harness';

/** Completed, cancelled, returned and pending (approval) Cash-Outs among paid Cash-Ins. */
export async function history(api: Integrator) {
  await deposit(api, 1000);
  await admin(`/admin/clients/${api.client.clientId}`, 'PATCH', { approvalThreshold: 100 });
  const times: number[] = [Date.now()];
  const ids: string[] = [];
  const outs: string[] = [];
  const inIds: string[] = [];
  for (let i = 0; i < 6; i++) {
    const c = await createCashIn(api, { amount: 20 + i });
    if (i !== 3) await payCashIn(api, c.internalCode as string);
    inIds.push(c.transactionId as string, c.internalCode as string, c.externalReference as string);
    const payee =
      i === 2
        ? { payee: { name: 'Ana', document: '12345678909', destination: magicKey('PIX_KEY_NOT_FOUND') } }
        : {};
    const out = await createCashOut(api, { amount: i === 4 ? 100 : 10 + i, ...payee });
    await settled(api, out.transactionId, i === 4 ? ['PENDING'] : undefined);
    outs.push(out.transactionId);
    times.push(Date.now());
  }
  const returned = await api.post(`/sandbox/cash-out/${outs[1]}/return`, { reason: 'FRAUD' });
  expect(returned.status).toBe(200);
  for (const id of outs) {
    const view = (await getCashOut(api, id)) as unknown as Record<string, unknown>;
    for (const key of [
      'internalCode',
      'transactionId',
      'externalReference',
      'endToEndId',
      'originalEndToEndId',
    ])
      if (typeof view[key] === 'string') ids.push(view[key] as string);
  }
  const accounts = api.client.accounts.map((a) => a.number);
  return { ids, inIds, times, outs, accounts, periods: periodsAround(times) };
}

export async function everything(api: Integrator, h: Awaited<ReturnType<typeof history>>): Promise<Reads> {
  const periods = h.periods;
  const reads = await allReads(api, 'cash-out', periods, h.ids);
  for (const [path, answer] of await allReads(api, 'cash-in', periods, h.inIds)) reads.set(path, answer);
  const ledger = await ledgerReads(api, h.accounts, [[brtDate(), brtDate()], periods[2]!], h.times);
  return new Map([...reads, ...ledger]);
}

export function same(after: Reads, before: Reads) {
  for (const [path, answer] of before) expect(after.get(path), path).toBe(answer);
  expect([...after.keys()]).toEqual([...before.keys()]);
}
