/**
 * Lists and summaries read the archive (issue 16): after POST /admin/clients/{id}/archive every list
 * page (both orders, walked forward and back across the hot/archived boundary), every summary and
 * every GET by id of the client answers the same bytes as before; a refund of an archived Cash-In
 * leaves the archived totals once (its old copy is stale) and archiving it again changes no read.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/domain/brcode';
import { fromBase64Url } from '../../src/security/encoding';
import { allReads, brtDate, periodsAround } from '../support/archive-reads';
import { createCashIn, getCashIn, payCashIn, waitFor } from '../support/cash-in';
import { admin, call, Integrator } from '../support/harness';
import { archiveSegments, archiveTotals, cashIns } from '../support/ledger-reads';
import { asLegacySegments } from '../support/ledger-writes';

const archive = (api: Integrator, before = new Date(Date.now() + 1).toISOString()) =>
  admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', { before });

/** Paid, cancelled and open Cash-Ins interleaved in time: the open ones stay hot among archived ones. */
async function mixedCashIns(api: Integrator) {
  const ids: string[] = [];
  const times: number[] = [];
  const paid: string[] = [];
  for (let i = 0; i < 7; i++) {
    const c = await createCashIn(api, { amount: 10 + i });
    times.push(Date.now());
    if (i % 3 === 0) {
      await payCashIn(api, c.internalCode as string);
      paid.push(c.transactionId as string);
    } else if (i % 3 === 1)
      expect((await api.post(`/cash-in/${c.transactionId}/cancel`, {})).status).toBe(200);
    const view = (await (await api.get(`/cash-in/${c.transactionId}`)).json()) as Record<string, unknown>;
    for (const key of [
      'internalCode',
      'transactionId',
      'externalReference',
      'endToEndId',
      'originalEndToEndId',
    ])
      if (typeof view[key] === 'string') ids.push(view[key] as string);
  }
  return { ids, times, paid };
}

const hot = async (api: Integrator) => (await cashIns(api.client.clientId)).length;

describe('lists and summaries across the archive', () => {
  it('answer every Cash-In page, summary and lookup byte for byte as before archiving', async () => {
    const api = await Integrator.create();
    const { ids, times } = await mixedCashIns(api);
    const periods = periodsAround(times);
    const before = await allReads(api, 'cash-in', periods, ids);
    expect([...before.values()].every((a) => a.startsWith('200 '))).toBe(true);
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 5 });
    expect(await hot(api)).toBe(2);
    const after = await allReads(api, 'cash-in', periods, ids);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [path, answer] of before) expect(after.get(path), path).toBe(answer);
    // Running totals per day were kept as the segment was written.
    const totals = (await archiveTotals(api.client.clientId)).filter((t) => t.kind === 'cash-in');
    expect(totals.reduce((n, t) => n + t.count, 0)).toBe(5);
  });

  it('a refunded archived Cash-In counts once, before and after it is archived again', async () => {
    const api = await Integrator.create();
    const { ids, times, paid } = await mixedCashIns(api);
    await archive(api);
    const refund = await api.signedPost(`/cash-in/${paid[0]}/refund`, { reason: 'CUSTOMER_REQUEST' });
    expect(refund.status).toBe(202);
    ids.push(((await refund.json()) as { endToEndId: string }).endToEndId); // the refund's own id
    await waitFor(
      () => getCashIn(api, paid[0]!),
      (c) => c.status === 'REFUNDED',
    );
    const summary = async () =>
      (await (await api.get(`/cash-in/summary?from=${brtDate()}&to=${brtDate()}`)).json()) as {
        totals: Record<string, { count: number }>;
      };
    const s = await summary();
    expect(s.totals.paid?.count).toBe(paid.length - 1);
    expect(s.totals.refunded?.count).toBe(1);
    const periods = periodsAround(times);
    const rehydrated = await allReads(api, 'cash-in', periods, ids);
    await archive(api);
    expect(await hot(api)).toBe(2);
    const again = await allReads(api, 'cash-in', periods, ids);
    for (const [path, answer] of rehydrated) expect(again.get(path), path).toBe(answer);
    expect([...again.values()].filter((a) => !a.startsWith('200 '))).toEqual([]);
    expect((await env.ARCHIVE.list({ prefix: `${api.client.clientId}/cash-in/` })).objects).toHaveLength(2);
  });

  it('segments archived before the manifest had ranges get them on the next step (reads unchanged)', async () => {
    const api = await Integrator.create();
    const { ids, times } = await mixedCashIns(api);
    const periods = periodsAround(times);
    const before = await allReads(api, 'cash-in', periods, ids);
    await archive(api);
    // As migration 0007 found a staging segment: no range, no totals.
    await asLegacySegments(api.client.clientId, 'cash-in');
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 0 });
    const after = await allReads(api, 'cash-in', periods, ids);
    for (const [path, answer] of before) expect(after.get(path), path).toBe(answer);
  });

  it('a Cash-In archived alone, refunded and archived again gets a segment of its own', async () => {
    const api = await Integrator.create();
    const c = await createCashIn(api);
    await payCashIn(api, c.internalCode as string);
    await archive(api);
    const refund = await api.signedPost(`/cash-in/${c.transactionId}/refund`, { reason: 'FRAUD' });
    expect(refund.status).toBe(202);
    await waitFor(
      () => getCashIn(api, c.transactionId as string),
      (x) => x.status === 'REFUNDED',
    );
    const view = await (await api.get(`/cash-in/${c.transactionId}`)).text();
    const list = await (await api.get(`/cash-in?from=${brtDate()}&to=${brtDate()}`)).text();
    expect((await archive(api)).status).toBe(200);
    expect(await hot(api)).toBe(0);
    const keys = (await archiveSegments(api.client.clientId)).filter(
      (s) => s.kind === 'cash-in' && s.state === 'DONE',
    );
    expect(keys).toHaveLength(2);
    expect(keys[1]!.key).not.toBe(keys[0]!.key);
    expect(await (await api.get(`/cash-in/${c.transactionId}`)).text()).toBe(view);
    expect(await (await api.get(`/cash-in?from=${brtDate()}&to=${brtDate()}`)).text()).toBe(list);
  });

  it('the BR Code location of an archived charge answers as before (its payload; signatures vary)', async () => {
    const api = await Integrator.create();
    const paths: string[] = [];
    for (let i = 0; i < 2; i++) {
      const c = await createCashIn(api);
      const parsed = parseBrCode(c.pixData!.copyAndPaste);
      paths.push(new URL(`http://${parsed.ok ? parsed.fields.merchantAccount.url : ''}`).pathname);
      if (i === 0) await payCashIn(api, c.internalCode as string);
      else expect((await api.post(`/cash-in/${c.transactionId}/cancel`, {})).status).toBe(200);
    }
    const served = async () =>
      Promise.all(
        paths.map(async (path) => {
          const res = await call(path);
          const text = await res.text();
          const payload =
            res.status === 200 ? new TextDecoder().decode(fromBase64Url(text.split('.')[1]!)) : text;
          // `apresentacao` is the instant it was served.
          const stable = payload.replace(/"apresentacao":"[^"]*"/, '');
          return `${res.status} ${res.headers.get('content-type')} ${stable}`;
        }),
      );
    const before = await served();
    expect(await (await archive(api)).json()).toEqual({ archivedTransactions: 2 });
    expect(await served()).toEqual(before);
  });
});
