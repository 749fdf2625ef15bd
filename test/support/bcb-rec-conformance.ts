/**
 * The Pix Automático half of the API Pix conformance run (bcb-pix-conformance.ts): the adapter's
 * recurrence, location, pushed request, recurring charge and retry calls, and the `rec` and `cobr`
 * callbacks the PSP posts, each validated against the vendored bacen/pix-api 2.9.0 document.
 */
import { addDays } from '../../src/domain/recurrence';
import { brtDate } from '../../src/domain/time';
import type { BcbApiPixPartner } from '../../src/partners/bcb-api-pix/adapter';
import type { BcbRecurrences } from '../../src/partners/bcb-api-pix/recurrence';
import { CHARGE_PAID, type RecurrenceRegistration } from '../../src/partners/port';
import type { OpenApiValidator } from './bcb-pix-conformance';
import type { FakeBcbPsp } from './fake-bcb-psp';

export async function runRecurrenceConformance(
  partner: BcbApiPixPartner,
  psp: FakeBcbPsp,
  validator: OpenApiValidator,
  expect: (what: string, ok: boolean) => void,
): Promise<void> {
  const recurrences = partner.recurrences as BcbRecurrences;
  expect('the partner declares Pix Automático', recurrences !== undefined);
  const today = brtDate(psp.now);
  const terms: RecurrenceRegistration = {
    periodicidade: 'MENSAL',
    startDate: addDays(today, 20),
    endDate: null,
    fixedAmountCents: 2_990,
    minimumAmountCents: null,
    politicaRetentativa: 'PERMITE_3R_7D',
    contract: 'PLANO-MENSAL-42',
    description: 'Assinatura mensal',
    payer: { name: 'Maria da Silva', document: '12345678909' },
    payerBank: null,
    authorizationExpiresAt: psp.now + 7 * 86_400_000,
  };
  // QR journey: location, recurrence on it, its BR Code.
  const qr = await recurrences.createRecurrence(terms);
  expect(
    'QR recurrence created with its BR Code',
    qr.ok && /^[a-zA-Z0-9]{29}$/.test(qr.value.idRec) && (qr.value.copyAndPaste ?? '').startsWith('000201'),
  );
  if (!qr.ok) return;
  const idRec = qr.value.idRec;
  expect('location linked to the recurrence', psp.rec.recs.get(idRec)?.loc?.idRec === idRec);
  const waiting = await recurrences.recurrence(idRec);
  expect('recurrence CRIADA', waiting.ok && waiting.value.status === 'CRIADA');
  psp.rec.approve(idRec);
  validator.callback(psp.rec.recCallback([idRec]), 'rec');
  const approved = await recurrences.recurrence(idRec);
  expect('recurrence APROVADA', approved.ok && approved.value.status === 'APROVADA');
  // A cycle's charge, under our txid: repeating it finds the same charge.
  const dueDate = addDays(today, 5);
  const txid = 'CPSPrc0000000000000000000000001';
  const charge = {
    txid,
    amountCents: 2_990,
    expiresAt: psp.now + 86_400_000,
    recurrence: { idRec, dueDate },
  };
  expect('recurring charge registered', (await partner.registerCharge(charge)).ok);
  expect(
    'recurring charge retried under the same txid',
    (await partner.registerCharge(charge)).ok && psp.rec.cobrs.size === 1,
  );
  expect('recurring charge amount exact', psp.rec.cobrs.get(txid)?.valor.original === '29.90');
  psp.rec.failAttempt(txid);
  validator.callback(psp.rec.cobrCallback([txid]), 'cobr');
  const retried = await recurrences.retryCharge(txid, addDays(dueDate, 1));
  expect('retry accepted with its attempts', retried.ok && retried.value.attempts.length === 2);
  psp.rec.payAttempt(txid);
  validator.callback(psp.rec.cobrCallback([txid]), 'cobr');
  const paid = await recurrences.recurringCharge(txid);
  expect(
    'recurring charge CONCLUIDA with its Pix',
    paid.ok && paid.value.status === 'CONCLUIDA' && paid.value.paidBy.length === 1,
  );
  const e2e = paid.ok ? (paid.value.paidBy[0] ?? '') : '';
  const pix = await partner.receivedPix(e2e);
  expect('the paying Pix read again', pix.ok && pix.value?.amountCents === 2_990 && pix.value.txid === txid);
  const paidGone = await partner.removeCharge(txid);
  expect('a paid recurring charge is not cancelled', !paidGone.ok && paidGone.failureCode === CHARGE_PAID);
  const other = 'CPSPrc0000000000000000000000002';
  await partner.registerCharge({
    ...charge,
    txid: other,
    recurrence: { idRec, dueDate: addDays(dueDate, 31) },
  });
  expect('a recurring charge cancelled', (await partner.removeCharge(other)).ok);
  expect('cancelled at the PSP', psp.rec.cobrs.get(other)?.status === 'CANCELADA');
  const third = 'CPSPrc0000000000000000000000003';
  await partner.registerCharge({
    ...charge,
    txid: third,
    recurrence: { idRec, dueDate: addDays(dueDate, 62) },
  });
  psp.rec.payerCancelsCharge(third);
  validator.callback(psp.rec.cobrCallback([third]), 'cobr');
  const byPayer = await recurrences.recurringCharge(third);
  expect('charge cancelled by the payer', byPayer.ok && byPayer.value.cancelledBy === 'PAYER');
  // The client ends it.
  expect('recurrence cancelled', (await recurrences.cancelRecurrence(idRec)).ok);
  const ended = await recurrences.recurrence(idRec);
  expect(
    'CANCELADA by the client',
    ended.ok && ended.value.status === 'CANCELADA' && ended.value.cancelledBy === 'CLIENT',
  );
  // Variable amount, no retries, PUSH journey (an alphanumeric CNPJ payer).
  const push = await recurrences.createRecurrence({
    ...terms,
    fixedAmountCents: null,
    minimumAmountCents: 1_000,
    politicaRetentativa: 'NAO_PERMITE',
    endDate: addDays(today, 400),
    payer: { name: 'Nova Ltda', document: '12ABC34501DE35' },
    payerBank: { ispb: '60701190', branch: '0001', account: '123456-7' },
  });
  expect('PUSH recurrence created with its request', push.ok && push.value.idSolicRec !== undefined);
  if (!push.ok || push.value.idSolicRec === undefined) return;
  const request = await recurrences.authorizationRequest(push.value.idSolicRec);
  expect('request sent to the payer bank', request.ok && request.value.status === 'ENVIADA');
  expect('request cancelled', (await recurrences.cancelAuthorizationRequest(push.value.idSolicRec)).ok);
  psp.rec.reject(push.value.idRec);
  validator.callback(psp.rec.recCallback([push.value.idRec]), 'rec');
  const rejected = await recurrences.recurrence(push.value.idRec);
  expect('recurrence REJEITADA', rejected.ok && rejected.value.status === 'REJEITADA');
  // A POST /rec the PSP did not answer: its list (GET /rec) is read before the recurrence is sent again.
  psp.failNext(503, 'ServicoIndisponivel');
  const resent = await recurrences.createRecurrence({
    ...terms,
    contract: 'PLANO-MENSAL-43',
    payerBank: { ispb: '60701190', branch: '0001', account: '123456-7' },
  });
  const copies = [...psp.rec.recs.values()].filter((r) => r.vinculo.contrato === 'PLANO-MENSAL-43');
  expect('a recurrence unanswered is looked for, then sent again once', resent.ok && copies.length === 1);
  // The payer cancels an approved one.
  const third2 = await recurrences.createRecurrence({ ...terms, politicaRetentativa: 'NAO_PERMITE' });
  if (!third2.ok) return void expect('third recurrence created', false);
  psp.rec.approve(third2.value.idRec);
  const noRetry = 'CPSPrc0000000000000000000000004';
  await partner.registerCharge({
    ...charge,
    txid: noRetry,
    recurrence: { idRec: third2.value.idRec, dueDate },
  });
  psp.rec.failAttempt(noRetry);
  const refused = await recurrences.retryCharge(noRetry, addDays(dueDate, 1));
  expect('no retry where politicaRetentativa is NAO_PERMITE', !refused.ok && !refused.retryable);
  psp.rec.failAttempt(noRetry, true);
  validator.callback(psp.rec.cobrCallback([noRetry]), 'cobr');
  psp.rec.payerCancels(third2.value.idRec);
  validator.callback(psp.rec.recCallback([third2.value.idRec]), 'rec');
  const gone = await recurrences.recurrence(third2.value.idRec);
  expect('CANCELADA by the payer', gone.ok && gone.value.cancelledBy === 'PAYER');
}
