/**
 * A Cash-In cancelled here is taken down at its real partner (API Pix `PATCH /cob/{txid}` status
 * REMOVIDA_PELO_USUARIO_RECEBEDOR, validated against the vendored document), so no payer can pay a
 * charge the client no longer wants; a Cash-In whose charge the partner reports paid is not
 * cancelled (the payment is a fact and is recorded); a partner down at cancellation is asked again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createCashIn, getCashIn, waitFor } from '../support/cash-in';
import { callback, newE2e, onboard, psp, statementOf } from '../support/partner-psp';

afterAll(async () => {
  expect((await psp('invalid')).invalid).toEqual([]);
});

describe('cancelled Cash-In at a real partner', () => {
  it('removes the charge at the PSP, after which it cannot be paid', async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 12 });
    expect((await psp(`cob/${cashIn.transactionId}`)).status).toBe('ATIVA');
    expect((await api.post(`/cash-in/${cashIn.internalCode}/cancel`, {})).status).toBe(200);
    const cob = await waitFor(
      () => psp(`cob/${cashIn.transactionId}`),
      (c) => c.status !== 'ATIVA',
    );
    expect(cob).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    expect(await psp('pay', { txid: cashIn.transactionId, endToEndId: newE2e() })).toBeNull();
  });

  it('a charge the partner reports paid is not cancelled: the payment is recorded', async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 9 });
    const e2e = newE2e();
    await psp('pay', { txid: cashIn.transactionId, endToEndId: e2e });
    const cancel = await api.post(`/cash-in/${cashIn.internalCode}/cancel`, {});
    expect(cancel.status).toBe(422);
    expect(((await cancel.json()) as { code: string }).code).toBe('RULE_VIOLATION');
    expect((await getCashIn(api, cashIn.internalCode)).status).toBe('AWAITING_PAYMENT');
    expect(await callback(e2e)).toEqual([{ endToEndId: e2e, outcomes: ['paid'] }]);
    expect((await statementOf(api)).map((e) => [e.type, e.amount])).toEqual([['PIX_IN', 9]]);
  });

  it('a partner that cannot answer at cancellation is asked again until the charge is gone', async () => {
    const api = await onboard();
    const cashIn = await createCashIn(api, { amount: 7 });
    await psp('fail-next', {
      match: `/cob/${cashIn.transactionId}`,
      status: 503,
      name: 'ServicoIndisponivel',
      times: 3,
    });
    expect((await api.post(`/cash-in/${cashIn.internalCode}/cancel`, {})).status).toBe(200);
    expect((await psp(`cob/${cashIn.transactionId}`)).status).toBe('ATIVA');
    const cob = await waitFor(
      () => psp(`cob/${cashIn.transactionId}`),
      (c) => c.status !== 'ATIVA',
    );
    expect(cob.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });
});
