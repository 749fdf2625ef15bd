import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/recurrence';
import { brtDate } from '../../src/domain/time';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { gatewayOnMockPsp } from '../support/gateway-on-mock-psp';

const gw = gatewayOnMockPsp('recurrence-e2e');
const { control, integrator } = gw;

const secretPath = (kind: 'pix' | 'rec' | 'cobr') =>
  `/partners/${FAKE_PSP_ISPB}/webhook/${gw.psp.partnerVars[`PARTNER_${FAKE_PSP_ISPB}_WEBHOOK_SECRET`]}/${kind}`;
/** The callback the PSP posts (its body read from the mock, validated there), answered outcomes. */
async function posted(kind: 'rec' | 'cobr', id: string): Promise<string[]> {
  const body = await control(`${kind}-callback`, kind === 'rec' ? { idRecs: [id] } : { txids: [id] });
  const res = await fetch(`${gw.base}${secretPath(kind)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const answer = (await res.json()) as Record<string, { outcomes: string[] }[]>;
  return (answer[kind === 'rec' ? 'recs' : 'cobsr'] ?? []).flatMap((i) => i.outcomes);
}

const cents = (v: string | number) => Math.round(Number(v) * 100);

describe('Pix Automático on a bcb-api-pix partner through npm start', () => {
  it('R$ 29,90 a month by QR: a failed attempt, the retry pays, the payer cancels; books equal the PSP', async () => {
    const api = await integrator('Clube Assinaturas Ltda');
    const today = brtDate(Date.now());
    const created = await api.post('/recurrences', {
      externalReference: `assinatura-${Date.now()}`,
      frequency: 'MONTHLY',
      startDate: addDays(today, 5),
      amount: 29.9,
      retryPolicy: 'THREE_IN_SEVEN_DAYS',
      contract: 'PLANO-MENSAL-42',
      description: 'Assinatura mensal',
      payer: { name: 'Maria da Silva', document: '12345678909' },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const rec = (await created.json()) as any;
    // The PSP's recurrence: its idRec is ours, its QR the PSP's (location linked to the rec).
    const atPsp = await control(`rec/${rec.recurrenceId}`);
    expect(atPsp).toMatchObject({
      status: 'CRIADA',
      valor: { valorRec: '29.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
    });
    expect(atPsp.loc.idRec).toBe(rec.recurrenceId);
    expect(rec.authorization.copyAndPaste).toContain(atPsp.loc.location.replace('https://', ''));

    // The payer approves in their bank app: the rec callback, read again, approves it once.
    await control('rec-approve', { idRec: rec.recurrenceId });
    expect(await posted('rec', rec.recurrenceId)).toEqual(['recorded']);
    expect(await posted('rec', rec.recurrenceId)).toEqual(['already-recorded']);
    expect(await api.get(`/recurrences/${rec.recurrenceId}`)).toMatchObject({ status: 'APPROVED' });

    // The cycle's charge: a Cash-In carrying its recurrence, a cobr at the PSP under its txid.
    const charged = await api.post(`/recurrences/${rec.recurrenceId}/charges`, {
      amount: 29.9,
      dueDate: rec.startDate,
      externalReference: `assinatura-c0-${Date.now()}`,
    });
    expect(charged.status, await charged.clone().text()).toBe(201);
    const cashIn = (await charged.json()) as any;
    expect(cashIn.recurrence).toMatchObject({ recurrenceId: rec.recurrenceId, cycle: 0, attemptsLeft: 5 });
    expect(await control(`cobr/${cashIn.transactionId}`)).toMatchObject({
      idRec: rec.recurrenceId,
      status: 'ATIVA',
      valor: { original: '29.90' },
      calendario: { dataDeVencimento: rec.startDate },
    });

    // The first attempt fails: recorded once, and the next day's retry asked of the PSP.
    await control('cobr-fail', { txid: cashIn.transactionId });
    expect(await posted('cobr', cashIn.transactionId)).toEqual(['recorded']);
    expect(await posted('cobr', cashIn.transactionId)).toEqual(['waiting']);
    const retry = await control(`cobr/${cashIn.transactionId}`);
    expect(retry.tentativas.map((t: any) => [t.tipo, t.status])).toEqual([
      ['AGND', 'REJEITADA'],
      ['RIFL', 'AGENDADA'],
    ]);
    expect(retry.tentativas[1].dataLiquidacao).toBe(addDays(rec.startDate, 1));
    const charges = await api.get(`/recurrences/${rec.recurrenceId}/charges`);
    expect(charges.items).toMatchObject([{ status: 'AWAITING_PAYMENT', failedAttempts: 1, attemptsLeft: 4 }]);

    // The retry pays: the Pix that paid it, read again, books the Cash-In once.
    await control('cobr-pay', { txid: cashIn.transactionId });
    expect(await posted('cobr', cashIn.transactionId)).toEqual(['paid', 'already-recorded']);
    expect(await posted('cobr', cashIn.transactionId)).toEqual(['already-paid', 'already-recorded']);
    const paid = await api.get(`/cash-in/${cashIn.transactionId}`);
    expect(paid).toMatchObject({ status: 'PAID', amount: 29.9 });

    // The payer cancels the authorization in their bank.
    await control('rec-payer-cancel', { idRec: rec.recurrenceId });
    expect(await posted('rec', rec.recurrenceId)).toEqual(['recorded']);
    expect(await posted('rec', rec.recurrenceId)).toEqual(['already-recorded']);
    expect(await api.get(`/recurrences/${rec.recurrenceId}`)).toMatchObject({
      status: 'CANCELLED',
      cancelledBy: 'PAYER',
    });

    // Our books are the PSP's: one Pix received of 29,90, centavo by centavo, nothing held.
    const e2e = (await control(`cobr/${cashIn.transactionId}`)).pix[0].endToEndId;
    const pix = await control(`pix/${e2e}`);
    expect(cents(pix.valor)).toBe(2_990);
    expect(paid.endToEndId).toBe(e2e);
    const balance = await api.get('/account/balance');
    const transactional = balance.partners
      .flatMap((p: any) => p.accounts)
      .find((a: any) => a.type === 'TRANSACTIONAL');
    expect(cents(transactional.balance)).toBe(cents(pix.valor));
    expect(cents(transactional.available)).toBe(cents(pix.valor));
    expect(cents((await control('balance')).saldo)).toBe(cents(transactional.balance));
    expect((await control('invalid')).invalid).toEqual([]);
  });
});
