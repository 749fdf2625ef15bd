/**
 * Closed Cash-Outs and ledger entries move to the archive too (issue 16): every Cash-Out list page,
 * summary and lookup, every statement page (running balanceAfter) and balance `at` answers the same
 * bytes after POST /admin/clients/{id}/archive; a crash between the segment put and the deletion of
 * either kind loses and doubles nothing; an archived COMPLETED Cash-Out can still be returned.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { everything, history, same } from '../support/archive-history';
import { settled } from '../support/cash-out';
import { armCrash, crashedAt } from '../support/crash';
import { admin, Integrator } from '../support/harness';
import { archiveSegments, cashOuts, ledgerEntries } from '../support/ledger-reads';

const archive = (api: Integrator) =>
  admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
    before: new Date(Date.now() + 1).toISOString(),
  });

const hotCashOuts = async (api: Integrator) => (await cashOuts(api.client.clientId)).length;
const hotEntries = async (api: Integrator) => (await ledgerEntries(api.client.clientId)).length;
const segments = (api: Integrator) => archiveSegments(api.client.clientId);

describe('Cash-Outs and ledger entries across the archive', () => {
  it('answer every Cash-Out page, summary, lookup, statement page and balance as before', async () => {
    const api = await Integrator.create();
    const h = await history(api);
    const before = await everything(api, h);
    expect([...before.values()].filter((a) => !a.startsWith('200 '))).toEqual([]);
    const entries = await hotEntries(api);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 10 });
    expect(await hotCashOuts(api)).toBe(1); // the pending one
    expect(await hotEntries(api)).toBe(0);
    const archivedEntries = (await segments(api))
      .filter((s) => s.kind.startsWith('ledger:'))
      .reduce((n, s) => n + (s.count ?? 0), 0);
    expect(archivedEntries).toBe(entries);
    same(await everything(api, h), before);

    // Still changes as before: the pending one is approved, an archived COMPLETED one is returned.
    type Body = { partners: { accounts: { balance: number }[] }[] };
    const balance = async () =>
      ((await (await api.get('/account/balance')).json()) as Body).partners.flatMap((p) => p.accounts);
    const start = await balance();
    const approved = await admin(
      `/admin/clients/${api.client.clientId}/cash-out/${h.outs[4]}/approve`,
      'POST',
    );
    expect(approved.status).toBe(200);
    const returned = await api.post(`/sandbox/cash-out/${h.outs[0]}/return`, { reason: 'FRAUD' });
    expect(returned.status).toBe(200);
    expect(((await returned.json()) as { status: string }).status).toBe('REFUNDED');
    const again = await api.post(`/sandbox/cash-out/${h.outs[0]}/return`, { reason: 'FRAUD' });
    expect(again.status).toBe(422);
    expect(((await settled(api, h.outs[4]!)) as { status: string }).status).toBe('COMPLETED');
    const end = await balance();
    const total = (a: { balance: number }[]) => a.reduce((s, x) => s + x.balance, 0);
    expect(Math.round((total(end) - total(start)) * 100)).toBe(1000 - 10000); // +10 returned, -100 paid
    // Archiving again moves the two that closed; reads made now stay the same afterwards.
    const now = await everything(api, h);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 2 });
    same(await everything(api, h), now);
  });

  it.each([
    ['archive.cash-out-written', 'cash-out'],
    ['archive.ledger-written', 'ledger'],
  ] as const)('a crash at %s loses and doubles nothing', async (point, prefix) => {
    const api = await Integrator.create();
    const h = await history(api);
    const before = await everything(api, h);
    const hotOuts = await hotCashOuts(api);
    const hotEntryCount = await hotEntries(api);
    await armCrash(api, point);
    const crashed = await archive(api).catch(() => undefined);
    expect(crashed?.status ?? 500).toBe(500);
    expect(await crashedAt(api, point)).toBeDefined();
    const writing = (await segments(api)).filter((s) => s.state === 'WRITING');
    expect(writing).toHaveLength(1);
    expect(writing[0]!.kind.startsWith(prefix)).toBe(true);
    if (prefix === 'cash-out') expect(await hotCashOuts(api)).toBe(hotOuts);
    else expect(await hotEntries(api)).toBe(hotEntryCount);
    same(await everything(api, h), before);
    expect(await (await archive(api)).json()).toMatchObject({ archivedTransactions: expect.any(Number) });
    expect((await segments(api)).filter((s) => s.state === 'WRITING').length).toBe(0);
    expect(await hotEntries(api)).toBe(0);
    expect(await hotCashOuts(api)).toBe(1);
    // Each segment once in R2 (the crashed one rewritten under the same key).
    const keys = (await env.ARCHIVE.list({ prefix: `${api.client.clientId}/` })).objects.map((o) => o.key);
    const manifest = await segments(api);
    expect(keys.sort()).toEqual(manifest.map((m) => m.key).sort());
    same(await everything(api, h), before);
  });
});
