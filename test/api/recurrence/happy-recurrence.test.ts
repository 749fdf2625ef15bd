/**
 * Pix Automático recurrences through real HTTP (docs/contract.md, Pix Automático): creation by QR
 * and by push, the payer's bank approving, rejecting and cancelling through the sandbox, the
 * client cancelling, reads and lists, and each change a signed event to the recurrence's webhookUrl.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { RecurrencePageBody } from '../../../src/api/recurrence/list-recurrences';
import type { RecurrenceBody } from '../../../src/api/recurrence/shared';
import { parseBrCode } from '../../../src/domain/brcode';
import { brtDate } from '../../../src/domain/time';
import { Integrator } from '../../support/harness';
import { recurrenceBody } from '../../support/recurrence';
import { newSink, waitForRequests } from '../../support/webhooks';

const today = () => brtDate(Date.now());
async function create(api: Integrator, body: Record<string, unknown>): Promise<RecurrenceBody> {
  const res = await api.post('/recurrences', body);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

describe('recurrences', () => {
  it('QR journey: a BR Code for the payer; approved by the payer bank, then cancelled by the payer, each a signed event', async () => {
    const api = await Integrator.create();
    const sink = newSink();
    const created = await create(api, recurrenceBody({ webhookUrl: sink.url, includeQrCodeImage: true }));
    expect(created).toMatchObject({
      status: 'WAITING_AUTHORIZATION',
      frequency: 'MONTHLY',
      amount: 29.9,
      retryPolicy: 'THREE_IN_SEVEN_DAYS',
      authorization: { journey: 'QR' },
    });
    expect(created.recurrenceId).toMatch(/^RR\d{8}\d{8}[A-Za-z0-9]{11}$/);
    expect(created.recurrenceId.slice(10, 18)).toBe(today().replaceAll('-', ''));
    const parsed = parseBrCode(created.authorization.copyAndPaste!);
    if (!parsed.ok) throw new Error(parsed.error);
    const code = parsed.fields;
    // The QR journey without a charge: the recurrence's location in field 80, no amount, no charge.
    expect(code.recurrence?.url).toMatch(/\/pix\/rec\/[A-Za-z0-9]{22}[A-Z0-9]{7}$/);
    expect(code.merchantAccount.url).toBeUndefined();
    expect(code.amount).toBeUndefined();
    expect(created.authorization.qrCodeImageBase64).toMatch(/^iVBOR/);

    const approved = await api.post(`/sandbox/recurrences/${created.recurrenceId}/approve`, {});
    expect(approved.status).toBe(200);
    const a = (await approved.json()) as RecurrenceBody;
    expect(a).toMatchObject({
      status: 'APPROVED',
      nextDueDate: created.startDate,
      authorization: { journey: 'QR' },
    });
    expect(a.authorization.copyAndPaste).toBeUndefined();

    const byReference = await api.get(`/recurrences/${created.externalReference}`);
    expect(((await byReference.json()) as RecurrenceBody).status).toBe('APPROVED');

    const cancelled = await api.post(`/sandbox/recurrences/${created.recurrenceId}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ status: 'CANCELLED', cancelledBy: 'PAYER' });
    const again = await api.post(`/recurrences/${created.recurrenceId}/cancel`, {});
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ code: 'RULE_VIOLATION' });

    const requests = await waitForRequests(sink, 2);
    const hook = new Webhook(api.client.webhookSecret);
    const events = requests.map(
      (r) => hook.verify(r.body, r.headers) as { eventType: string; data: RecurrenceBody },
    );
    expect(events.map((e) => [e.eventType, e.data.status])).toEqual([
      ['RECURRENCE_APPROVED', 'APPROVED'],
      ['RECURRENCE_CANCELLED', 'CANCELLED'],
    ]);
    expect(events[1]!.data.cancelledBy).toBe('PAYER');
  });

  it('push journey: no BR Code; rejected by the payer bank', async () => {
    const api = await Integrator.create();
    const created = await create(
      api,
      recurrenceBody({
        amount: undefined,
        minimumAmount: 10,
        retryPolicy: 'NONE',
        payer: {
          name: 'João Souza',
          document: '98765432100',
          bankData: { ispb: '60701190', branch: '0001', account: '12345-6' },
        },
      }),
    );
    expect(created.recurrenceId.startsWith('RN')).toBe(true);
    expect(created.authorization).toEqual({ journey: 'PUSH' });
    expect(created.payer.bankData).toEqual({ ispb: '60701190', branch: '0001', account: '12345-6' });
    const rejected = await api.post(`/sandbox/recurrences/${created.recurrenceId}/reject`, {});
    expect(await rejected.json()).toMatchObject({ status: 'REJECTED' });
    const approveLate = await api.post(`/sandbox/recurrences/${created.recurrenceId}/approve`, {});
    expect(approveLate.status).toBe(422);
  });

  it('a variable amount takes the payer maximum on approval; the client cancels; lists newest first', async () => {
    const api = await Integrator.create();
    const first = await create(api, recurrenceBody({ amount: undefined, minimumAmount: 10 }));
    const low = await api.post(`/sandbox/recurrences/${first.recurrenceId}/approve`, {
      payerMaximumAmount: 9.99,
    });
    expect(low.status).toBe(422);
    expect(((await low.json()) as { detail: string }).detail).toMatch(/payerMaximumAmount: below/);
    const ok = await api.post(`/sandbox/recurrences/${first.recurrenceId}/approve`, {
      payerMaximumAmount: 80,
    });
    expect(await ok.json()).toMatchObject({ status: 'APPROVED', minimumAmount: 10, payerMaximumAmount: 80 });
    const second = await create(api, recurrenceBody({ frequency: 'WEEKLY' }));
    const cancelled = await api.post(`/recurrences/${second.recurrenceId}/cancel`, {});
    expect(await cancelled.json()).toMatchObject({ status: 'CANCELLED', cancelledBy: 'CLIENT' });

    const page1 = (await (await api.get('/recurrences?limit=1')).json()) as RecurrencePageBody;
    expect(page1.items.map((r) => r.recurrenceId)).toEqual([second.recurrenceId]);
    const page2 = (await (
      await api.get(`/recurrences?limit=1&cursor=${page1.nextCursor}`)
    ).json()) as RecurrencePageBody;
    expect(page2.items.map((r) => r.recurrenceId)).toEqual([first.recurrenceId]);
    expect(page2.nextCursor).toBeUndefined();
  });

  it('idempotent creation replays the same recurrence', async () => {
    const api = await Integrator.create();
    const body = recurrenceBody();
    const key = crypto.randomUUID();
    const one = await api.post('/recurrences', body, { 'x-idempotency-key': key });
    const two = await api.post('/recurrences', body, { 'x-idempotency-key': key });
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    expect(await two.json()).toEqual(await one.json());
    const list = (await (await api.get('/recurrences')).json()) as RecurrencePageBody;
    expect(list.items).toHaveLength(1);
  });
});
