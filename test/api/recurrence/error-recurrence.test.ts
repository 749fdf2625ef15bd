/**
 * Refusals of the recurrence API (docs/contract.md, Pix Automático): every bad field named with a
 * 400, rule violations 422, a real partner without Pix Automático refused before anything is sent,
 * another client's recurrence answering like a nonexistent one, and an unanswered one expiring.
 */
import { runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { RecurrenceBody } from '../../../src/api/recurrence/shared';
import { addDays } from '../../../src/domain/recurrence';
import { brtDate } from '../../../src/domain/time';
import { Integrator } from '../../support/harness';
import { ledgerStub } from '../../support/ledger';
import { recurrences, tasks } from '../../support/ledger-reads';
import { setTasksDue, wakeIn } from '../../support/ledger-writes';
import { onboard } from '../../support/partner-psp';
import { recurrenceBody } from '../../support/recurrence';
import { outboxEvents } from '../../support/webhooks';

const rows = async (api: Integrator) => (await recurrences(api.client.clientId)).length;

async function refused(api: Integrator, body: Record<string, unknown>, status: number) {
  const res = await api.post('/recurrences', body);
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as { code: string; detail: string; errors?: Record<string, string[]> };
}

describe('POST /recurrences refusals', () => {
  it('names each bad field with a 400, and stores nothing', async () => {
    const api = await Integrator.create();
    const today = brtDate(Date.now());
    const cases: [Record<string, unknown>, string][] = [
      [{ frequency: 'DAILY' }, 'frequency'],
      [{ startDate: '2027-02-29' }, 'startDate'],
      [{ startDate: addDays(today, -1) }, 'startDate'],
      [{ endDate: addDays(today, 19) }, 'endDate'],
      [{ amount: 10, minimumAmount: 5 }, 'minimumAmount'],
      [{ amount: 0 }, 'amount'],
      [{ retryPolicy: 'ALWAYS' }, 'retryPolicy'],
      [{ contract: 'x'.repeat(36) }, 'contract'],
      [{ payer: { name: 'Maria', document: '12345678900' } }, 'payer.document'],
      [
        {
          payer: {
            name: 'Maria',
            document: '12345678909',
            bankData: { ispb: '1', branch: '1', account: '1' },
          },
        },
        'payer.bankData.ispb',
      ],
      [{ authorizationExpirationInDays: 31 }, 'authorizationExpirationInDays'],
      [{ surprise: true }, 'surprise'],
    ];
    for (const [change, field] of cases) {
      const body = await refused(api, recurrenceBody(change), 400);
      expect(body.code, field).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.errors ?? {}), JSON.stringify(change)).toContain(field);
    }
    expect(await rows(api)).toBe(0);
  });

  it('refuses a reused externalReference with 409', async () => {
    const api = await Integrator.create();
    const body = recurrenceBody();
    expect((await api.post('/recurrences', body)).status).toBe(201);
    const again = await refused(api, { ...body, frequency: 'ANNUAL' }, 409);
    expect(again.code).toBe('DUPLICATED_EXTERNAL_REFERENCE');
    expect(await rows(api)).toBe(1);
  });

  it('a real partner without Pix Automático refuses with 422 before anything is sent', async () => {
    const api = await onboard();
    const body = await refused(api, recurrenceBody(), 422);
    expect(body).toMatchObject({ code: 'RULE_VIOLATION' });
    expect(body.detail).toMatch(/does not offer Pix Automático; nothing was sent/);
    expect(await rows(api)).toBe(0);
  });
});

describe('reads and moves', () => {
  it("another client's recurrence answers exactly like a nonexistent one", async () => {
    const owner = await Integrator.create();
    const other = await Integrator.create();
    const created = (await (await owner.post('/recurrences', recurrenceBody())).json()) as RecurrenceBody;
    for (const id of [created.recurrenceId, created.externalReference]) {
      const theirs = await other.get(`/recurrences/${id}`);
      const none = await other.get('/recurrences/RR0000000020270101abcdefghijk');
      expect(theirs.status).toBe(404);
      const [a, b] = [
        (await theirs.json()) as Record<string, unknown>,
        (await none.json()) as Record<string, unknown>,
      ];
      expect({ ...a, traceId: undefined }).toEqual({ ...b, traceId: undefined });
      expect(a.code).toBe('RECURRENCE_NOT_FOUND');
      for (const verb of ['approve', 'reject', 'cancel'])
        expect((await other.post(`/sandbox/recurrences/${id}/${verb}`, {})).status).toBe(404);
      expect((await other.post(`/recurrences/${id}/cancel`, {})).status).toBe(404);
    }
    expect(
      ((await (await owner.get(`/recurrences/${created.recurrenceId}`)).json()) as RecurrenceBody).status,
    ).toBe('WAITING_AUTHORIZATION');
  });

  it('a payer maximum is refused on a fixed amount', async () => {
    const api = await Integrator.create();
    const created = (await (await api.post('/recurrences', recurrenceBody())).json()) as RecurrenceBody;
    const res = await api.post(`/sandbox/recurrences/${created.recurrenceId}/approve`, {
      payerMaximumAmount: 50,
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/fixed-amount/);
  });

  it('an unanswered recurrence expires at authorizationExpiresAt, with its event; then it cannot be approved', async () => {
    const api = await Integrator.create();
    const created = (await (
      await api.post('/recurrences', recurrenceBody({ authorizationExpirationInDays: 1 }))
    ).json()) as RecurrenceBody;
    const taskId = `expire-recurrence:${created.recurrenceId}`;
    const task = (await tasks(api.client.clientId)).find((t) => t.id === taskId);
    expect(task!.dueAt).toBe(Date.parse(created.authorizationExpiresAt));
    const stub = ledgerStub(api.client.clientId);
    await setTasksDue(api.client.clientId, { id: taskId }, Date.now());
    await wakeIn(api.client.clientId, 0);
    await runDurableObjectAlarm(stub);
    const now = (await (await api.get(`/recurrences/${created.recurrenceId}`)).json()) as RecurrenceBody;
    expect(now.status).toBe('EXPIRED');
    expect(now.expiredAt).toBeDefined();
    expect((await api.post(`/sandbox/recurrences/${created.recurrenceId}/approve`, {})).status).toBe(422);
    const events = await outboxEvents(api.client.clientId, `recurrence:${created.recurrenceId}`);
    expect(events.map((e) => e.eventType)).toEqual(['RECURRENCE_EXPIRED']);
  });
});
