/**
 * A change that lives in a ClientLedger (an approval, a rejection, a redelivery) is recorded in the
 * object's own transaction: the record exists exactly when the change happened, reaches D1's trail
 * before the answer, and one D1 did not take is forwarded by the next sweep, once.
 */

import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { keepAudit } from '../../../durable-objects/ledger/audit-outbox-store';
import type { AuditRow } from '../../../src/db/audit';
import { createCashOut, deposit, settled } from '../../support/cash-out';
import { admin, Integrator } from '../../support/harness';
import { assertBooks } from '../../support/invariants';
import { ledgerStub } from '../../support/ledger';
import { auditKept, inLedger } from '../../support/ledger-reads';
import { auditTrail, recordsOf } from '../../support/operators';

describe('audit records of ClientLedger changes', () => {
  it('approve and reject: one record each, kept with the decision; a refused decision leaves one refusal', async () => {
    const api = await Integrator.create();
    const clientId = api.client.clientId;
    await deposit(api, 1000);
    await admin(`/admin/clients/${clientId}`, 'PATCH', { approvalThreshold: 100 });
    const big = await createCashOut(api, { amount: 100 });
    await settled(api, big.transactionId, ['PENDING']);
    const approved = await admin(`/admin/clients/${clientId}/cash-out/${big.transactionId}/approve`, 'POST');
    expect(approved.status).toBe(200);
    const [record, ...more] = await recordsOf(approved);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      action: 'approveCashOut',
      before: { status: 'PENDING' },
      after: { status: 'PROCESSING' },
      result: 'OK',
    });
    // Forwarded before the answer: nothing is left in the object's outbox.
    expect(await auditKept(clientId)).toEqual([]);

    const again = await admin(`/admin/clients/${clientId}/cash-out/${big.transactionId}/approve`, 'POST');
    expect(again.status).toBe(422);
    expect((await recordsOf(again)).map((r) => r.result)).toEqual(['RULE_VIOLATION']);

    const other = await createCashOut(api, { amount: 150 });
    await settled(api, other.transactionId, ['PENDING']);
    const rejected = await admin(`/admin/clients/${clientId}/cash-out/${other.transactionId}/reject`, 'POST');
    expect(rejected.status).toBe(200);
    expect((await recordsOf(rejected)).map((r) => [r.action, r.result])).toEqual([['rejectCashOut', 'OK']]);
    await settled(api, big.transactionId);
    await assertBooks(api);
  });

  it('a record the object kept but D1 did not take is forwarded by the sweep, once', async () => {
    const api = await Integrator.create();
    const clientId = api.client.clientId;
    const id = `aud_${crypto.randomUUID()}`;
    const record = {
      id,
      at: Date.now(),
      actorKind: 'ADMIN_TOKEN',
      operatorId: null,
      email: null,
      action: 'retryWebhookDelivery',
      target: `/admin/clients/${clientId}/webhook-deliveries/evt_x/retry`,
      before: null,
      after: { status: 'PENDING' },
      result: 'OK',
      requestId: crypto.randomUUID(),
    };
    // As if the object crashed between its transaction and D1.
    await inLedger(clientId, (l) => keepAudit(l.db, record as unknown as AuditRow));
    expect((await auditTrail()).filter((r) => r.id === id)).toEqual([]);
    const sweep = (instance: unknown) => (instance as { sweep(): Promise<void> }).sweep();
    await runInDurableObject(ledgerStub(clientId), sweep);
    await runInDurableObject(ledgerStub(clientId), sweep);
    expect((await auditTrail()).filter((r) => r.id === id)).toHaveLength(1);
    expect(await auditKept(clientId)).toEqual([]);
  });
});
