/**
 * Creating a recurrence at a real partner when the PSP's answer to `POST /rec` is lost (it created
 * the recurrence all the same): the gateway finds it among the PSP's recurrences (`GET /rec`) rather
 * than sending a second one, so the PSP holds exactly one, and it is ours (its callbacks reach us).
 * A journey that cannot be completed once the recurrence exists takes it down at the PSP, so no
 * recurrence the payer could never answer waits there.
 */
import { describe, expect, it } from 'vitest';
import type { RecurrenceBody } from '../../src/api/recurrence/shared';
import { onboardRec, recPsp, recurrenceCallback } from '../support/partner-psp';
import { recurrenceBody } from '../support/recurrence';

type PspRec = { idRec: string; status: string; vinculo: { contrato: string } };
const recsOf = async (contract: string) =>
  ((await recPsp('recs')) as PspRec[]).filter((r) => r.vinculo.contrato === contract);

describe('a recurrence whose POST /rec answer is lost', () => {
  it('QR and PUSH journeys: the PSP holds exactly one recurrence, ours, and its callbacks apply', async () => {
    const api = await onboardRec();
    for (const payer of [
      { name: 'Maria da Silva', document: '12345678909' },
      {
        name: 'Maria da Silva',
        document: '12345678909',
        bankData: { ispb: '60701190', branch: '0001', account: '123456-7' },
      },
    ]) {
      const contract = `PLANO-${crypto.randomUUID().slice(0, 8)}`;
      await recPsp('lose-next', { method: 'POST', match: '/v2/rec' });
      const created = await api.post('/recurrences', recurrenceBody({ contract, payer }));
      expect(created.status, await created.clone().text()).toBe(201);
      const rec = (await created.json()) as RecurrenceBody;
      const atPsp = await recsOf(contract);
      expect(atPsp.map((r) => [r.idRec, r.status])).toEqual([[rec.recurrenceId, 'CRIADA']]);
      await recPsp('rec-approve', { idRec: rec.recurrenceId });
      expect(await recurrenceCallback('rec', rec.recurrenceId)).toEqual(['recorded']);
    }
    expect((await recPsp('invalid')).invalid).toEqual([]);
  });

  it('a QR journey whose BR Code cannot be read: refused, and the recurrence cancelled at the PSP', async () => {
    const api = await onboardRec();
    const contract = `PLANO-${crypto.randomUUID().slice(0, 8)}`;
    await recPsp('fail-next', { match: '/v2/rec/', status: 503, name: 'ServicoIndisponivel', times: 3 });
    const created = await api.post('/recurrences', recurrenceBody({ contract }));
    expect(created.status).toBe(422);
    expect((await api.get('/recurrences')).status).toBe(200);
    expect(((await (await api.get('/recurrences')).json()) as { items: unknown[] }).items).toEqual([]);
    expect((await recsOf(contract)).map((r) => r.status)).toEqual(['CANCELADA']);
  });
});
