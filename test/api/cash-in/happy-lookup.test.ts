import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createCashIn, getCashIn, payCashIn, waitFor } from '../../support/cash-in';
import { Integrator } from '../../support/harness';
import { ledgerStub } from '../../support/ledger';
import { holds, ledgerEntries, partnerTransfers } from '../../support/ledger-reads';
import { addHold, addTask, setCashIn } from '../../support/ledger-writes';
import { outboxEvents } from '../../support/webhooks';

describe('GET /cash-in/{id} precedence (spec §4.5)', () => {
  it('internalCode, then transactionId, then payment endToEndId, then externalReference', async () => {
    const api = await Integrator.create();
    const a = await createCashIn(api);
    const paidA = await payCashIn(api, a.internalCode);
    const byCode = await createCashIn(api, { externalReference: a.internalCode });
    const byTx = await createCashIn(api, { externalReference: a.transactionId });
    const byE2e = await createCashIn(api, { externalReference: paidA.endToEndId });
    expect((await getCashIn(api, a.internalCode)).transactionId).toBe(a.transactionId);
    expect((await getCashIn(api, a.transactionId)).transactionId).toBe(a.transactionId);
    expect((await getCashIn(api, paidA.endToEndId!)).transactionId).toBe(a.transactionId);
    // Each reference still finds its own Cash-In when nothing ranks above it.
    for (const c of [byCode, byTx, byE2e])
      expect((await getCashIn(api, c.internalCode)).externalReference).toBe(c.externalReference);
  });

  it("another client's Cash-In answers exactly like a nonexistent one", async () => {
    const owner = await Integrator.create();
    const stranger = await Integrator.create();
    const created = await createCashIn(owner);
    for (const id of [created.internalCode, created.transactionId, created.externalReference]) {
      const foreign = await stranger.get(`/cash-in/${encodeURIComponent(id)}`);
      const missing = await stranger.get('/cash-in/NOSUCH1');
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toEqual(await missing.json());
      const refund = await stranger.signedPost(`/cash-in/${encodeURIComponent(id)}/refund`, {
        reason: 'FRAUD',
      });
      expect(refund.status).toBe(404);
      expect(((await refund.json()) as { code: string }).code).toBe('CASHIN_NOT_FOUND');
      expect((await stranger.post(`/cash-in/${encodeURIComponent(id)}/cancel`, {})).status).toBe(404);
      expect((await stranger.post(`/sandbox/cash-in/${encodeURIComponent(id)}/pay`, {})).status).toBe(404);
    }
  });
});

describe('crashes between a state change and what follows it', () => {
  it('an eviction right after payment loses no event or entry and duplicates none', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { amount: 12 });
    await payCashIn(api, created.internalCode);
    await evictDurableObject(ledgerStub(api.client.clientId));
    expect((await getCashIn(api, created.internalCode)).status).toBe('PAID');
    const events = await outboxEvents(api.client.clientId);
    expect(events.map((e) => e.eventType)).toEqual(['CASHIN_REQUESTED', 'CASHIN_PAID']);
    const entries = await ledgerEntries(api.client.clientId);
    expect(entries.map(({ type, amount }) => ({ type, amount }))).toEqual([{ type: 'PIX_IN', amount: 1200 }]);
  });

  it('a refund whose object dies before the devolution was sent is re-sent once and settles once', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { amount: 8 });
    const paid = await payCashIn(api, created.internalCode);
    const transactional = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    const refundE2e = `D${transactional.bank.ispb}202611211200CRASHTEST01`;
    // The first transaction of a refund committed (hold, PROCESSING, poll task), then the object died
    // before calling the partner.
    await addHold(api.client.clientId, {
      id: `refund:${created.transactionId}`,
      accountNumber: transactional.number,
      amount: 800,
      ref: 'crash',
      createdAt: 0,
    });
    await setCashIn(api.client.clientId, created.internalCode, {
      refundState: 'PROCESSING',
      refundEndToEndId: refundE2e,
      reason: 'FRAUD',
    });
    await addTask(api.client.clientId, 'poll-refund', created.transactionId, Date.now());
    await evictDurableObject(ledgerStub(api.client.clientId));
    await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) =>
      state.storage.setAlarm(Date.now() + 50),
    );
    const done = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    expect(done.status).toBe('REFUNDED');
    expect(done.endToEndId).toBe(refundE2e);
    expect(done.originalEndToEndId).toBe(paid.endToEndId);
    const sent = await partnerTransfers([refundE2e]);
    expect(sent.map(({ requests }) => ({ requests }))).toEqual([{ requests: 1 }]);
    const entries = await ledgerEntries(api.client.clientId);
    expect(entries.map((e) => e.type)).toEqual(['PIX_IN', 'PIX_REFUND_OUT']);
    const events = await outboxEvents(api.client.clientId);
    expect(events.map((e) => e.eventType)).toEqual(['CASHIN_REQUESTED', 'CASHIN_PAID', 'CASHIN_REFUNDED']);
    expect(await holds(api.client.clientId)).toEqual([]);
  });

  it('a refund evicted while in flight settles exactly once after restart', async () => {
    const api = await Integrator.create();
    const created = await createCashIn(api, { amount: 5 });
    await payCashIn(api, created.internalCode);
    expect(
      (await api.signedPost(`/cash-in/${created.internalCode}/refund`, { reason: 'FRAUD' })).status,
    ).toBe(202);
    await evictDurableObject(ledgerStub(api.client.clientId));
    const done = await waitFor(
      () => getCashIn(api, created.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    expect(done.status).toBe('REFUNDED');
    const entries = await ledgerEntries(api.client.clientId);
    expect(entries.map((e) => e.type)).toEqual(['PIX_IN', 'PIX_REFUND_OUT']);
  });
});
