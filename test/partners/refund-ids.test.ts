/**
 * Every id we answered for a refund finds its Cash-In (docs/contract.md, Lookup by id). On a real
 * partner the refund's 202 names the devolution id the gateway asked under; once the devolution
 * settles, the Cash-In's endToEndId becomes the PSP's rtrId. A client that stored the 202's id
 * still finds the transaction by it, hot and after the client's history is archived, and by the
 * rtrId too; the same transaction answers, byte for byte.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lookupSql } from '../../durable-objects/ledger/reads/lookup';
import { getCashIn, waitFor } from '../support/cash-in';
import { admin } from '../support/harness';
import { queryPlan } from '../support/ledger';
import { cashIns } from '../support/ledger-reads';
import { callback, onboard, paidAtPsp, psp } from '../support/partner-psp';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

describe("a settled real-partner refund's ids", () => {
  it("the 202's endToEndId and the PSP's rtrId both find the Cash-In, hot and archived", async () => {
    const api = await onboard();
    const { cashIn, e2e } = await paidAtPsp(api, 31.4);
    await callback(e2e);
    const refund = await api.signedPost(`/cash-in/${cashIn.internalCode}/refund`, {
      reason: 'MERCHANT_ERROR',
    });
    expect(refund.status).toBe(202);
    const answered = ((await refund.json()) as { endToEndId: string }).endToEndId;
    // While in flight, the id answered finds it.
    expect((await getCashIn(api, answered)).transactionId).toBe(cashIn.transactionId);
    await psp('devolution', { endToEndId: e2e, id: answered, ok: true });
    const view = await waitFor(
      () => getCashIn(api, cashIn.internalCode),
      (c) => c.status === 'REFUNDED',
    );
    const rtrId = (await psp(`pix/${e2e}`)).devolucoes[0].rtrId as string;
    expect(rtrId).not.toBe(answered);
    expect(view).toMatchObject({ status: 'REFUNDED', endToEndId: rtrId, originalEndToEndId: e2e });

    const read = async (id: string) => {
      const res = await api.get(`/cash-in/${encodeURIComponent(id)}`);
      return `${res.status} ${await res.text()}`;
    };
    const hot = await read(cashIn.internalCode);
    expect(hot).toMatch(/^200 /);
    expect(await read(answered)).toBe(hot);
    expect(await read(rtrId)).toBe(hot);
    // A second refund by the answered id finds the same, already refunded, Cash-In (not a 404).
    const again = await api.signedPost(`/cash-in/${answered}/refund`, { reason: 'MERCHANT_ERROR' });
    expect(again.status).toBe(422);

    // Bounded cost: every term of the lookup, the alias included, is an index probe, never a scan.
    const details = await queryPlan(api.client.clientId, lookupSql('cash_ins', 'seq, level', true), answered);
    expect(details).toContain('cash_ins_refund_request_idx');
    expect(details).toContain('cash_ins_refund_e2e_idx');
    expect(details).not.toMatch(/SCAN cash_ins/);

    const archived = await admin(`/admin/clients/${api.client.clientId}/archive`, 'POST', {
      before: new Date(Date.now() + 1).toISOString(),
    });
    expect(archived.status).toBe(200);
    expect((await cashIns(api.client.clientId)).length).toBe(0);
    expect(await read(answered)).toBe(hot);
    expect(await read(rtrId)).toBe(hot);
    expect(await read(cashIn.internalCode)).toBe(hot);
  });
});
