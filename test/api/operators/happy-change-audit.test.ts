/**
 * Operator changes outside the request's own D1 batch are recorded where they commit: a fault
 * injection or clearing in the same D1 batch as the fault (D1 refusing the record refuses the
 * change), an archive run in the ClientLedger transaction that concludes it (kept in the object's
 * outbox when D1 cannot take it, forwarded by the sweep), a partner webhook registration and a
 * health import once the partner or the queue confirmed, with what changed. Fault injection is
 * partner-wide, so this file is one of vitest.config.ts's PARTNER_FAULT_FILES.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { ALFA } from '../../health/worker-world';
import { createCashIn, payCashIn } from '../../support/cash-in';
import { FAKE_PSP_ISPB } from '../../support/fake-psp-env';
import { admin, Integrator } from '../../support/harness';
import { ledgerStub, sqlRows } from '../../support/ledger';
import { auditTrail, recordsOf } from '../../support/operators';
import { SECRET } from '../../support/partner-psp';

const SANDBOX = '42273459';
const TRIGGER = 'audit_refused_for_test';

/** D1 refuses the audit records `when` matches, as if the trail's write failed. */
async function refuseAudit(when: string): Promise<void> {
  await env.DB.prepare(
    `CREATE TRIGGER ${TRIGGER} BEFORE INSERT ON audit_records WHEN ${when} BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
  ).run();
}
const acceptAudit = () => env.DB.prepare(`DROP TRIGGER IF EXISTS ${TRIGGER}`).run();

const faultsOf = async (ispb: string) =>
  (await env.DB.prepare('SELECT latency_ms FROM partner_faults WHERE ispb = ?').bind(ispb).all()).results;

describe('audit records written with the change', () => {
  afterEach(async () => {
    await acceptAudit();
    await admin(`/admin/partners/${SANDBOX}/faults`, 'DELETE');
  });

  it('fault injection and clearing: the fault and its record commit in one D1 batch', async () => {
    const fault = { operation: 'CASH_IN', failureRate: 0, latencyMs: 7, minutes: 1 };
    await refuseAudit("NEW.action = 'injectPartnerFault'");
    const refused = await admin(`/admin/partners/${SANDBOX}/faults`, 'POST', fault);
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(await faultsOf(SANDBOX)).toEqual([]);
    await acceptAudit();

    const injected = await admin(`/admin/partners/${SANDBOX}/faults`, 'POST', fault);
    expect(injected.status).toBe(201);
    const [record, ...more] = await recordsOf(injected);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      action: 'injectPartnerFault',
      target: `/admin/partners/${SANDBOX}/faults`,
      after: { operation: 'CASH_IN', latencyMs: 7 },
      result: 'OK',
    });

    await refuseAudit("NEW.action = 'clearPartnerFaults'");
    expect((await admin(`/admin/partners/${SANDBOX}/faults`, 'DELETE')).status).toBeGreaterThanOrEqual(500);
    expect(await faultsOf(SANDBOX)).toHaveLength(1);
    await acceptAudit();
    const cleared = await admin(`/admin/partners/${SANDBOX}/faults`, 'DELETE');
    expect(cleared.status).toBe(204);
    expect(await faultsOf(SANDBOX)).toEqual([]);
    expect((await recordsOf(cleared)).map((r) => [r.action, r.result])).toEqual([
      ['clearPartnerFaults', 'OK'],
    ]);
  });

  it('an archive run: its record is kept by the transaction that concludes it, and reaches D1 once', async () => {
    const api = await Integrator.create();
    const clientId = api.client.clientId;
    const charge = await createCashIn(api, { amount: 12 });
    await payCashIn(api, charge.internalCode as string);
    const path = `/admin/clients/${clientId}/archive`;
    const before = new Date(Date.now() + 1000).toISOString();

    await refuseAudit(`NEW.target = '${path}'`);
    const run = await admin(path, 'POST', { before });
    expect(run.status).toBe(200);
    const { archivedTransactions } = (await run.json()) as { archivedTransactions: number };
    const kept = await sqlRows<{ record: string }>(clientId, 'SELECT record FROM audit_outbox');
    expect(kept).toHaveLength(1);
    expect((await auditTrail()).filter((r) => r.target === path)).toEqual([]);

    await acceptAudit();
    const sweep = (instance: unknown) => (instance as { sweep(): Promise<void> }).sweep();
    await runInDurableObject(ledgerStub(clientId), sweep);
    await runInDurableObject(ledgerStub(clientId), sweep);
    const [record, ...more] = await recordsOf(run);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      action: 'archiveClient',
      target: path,
      after: { before, archivedTransactions },
      result: 'OK',
    });
    expect(await sqlRows(clientId, 'SELECT id FROM audit_outbox')).toEqual([]);

    // With D1 taking it: forwarded before the answer.
    const again = await admin(path, 'POST', { before });
    expect(again.status).toBe(200);
    expect((await recordsOf(again)).map((r) => r.after)).toEqual([{ before, archivedTransactions: 0 }]);
  });

  it('partner webhook registration: recorded once the partner took it, the secret path masked', async () => {
    const res = await admin(`/admin/partners/${FAKE_PSP_ISPB}/webhook`, 'PUT', {
      baseUrl: 'https://api.connectpsp.example',
    });
    expect(res.status).toBe(200);
    const [record, ...more] = await recordsOf(res);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      action: 'registerPartnerWebhook',
      after: {
        webhookUrl: `https://api.connectpsp.example/partners/${FAKE_PSP_ISPB}/webhook/***`,
        authentication: 'secretPath',
      },
      result: 'OK',
    });
    expect(JSON.stringify(record)).not.toContain(SECRET);
  });

  it('a health import: recorded once the queue took it, naming what was queued', async () => {
    const run = crypto.randomUUID();
    const observations = [1, 2].map((i) => ({
      id: `${run}:${i}`,
      at: new Date(Date.now() - 1000 * i).toISOString(),
      clientId: 'audit-test',
      operation: 'CASH_IN',
      partnerIspb: ALFA,
      institutionIspb: '00000000',
      event: 'CREATED',
    }));
    const res = await admin('/admin/health/observations', 'POST', { observations });
    expect(res.status).toBe(202);
    expect((await recordsOf(res)).map((r) => [r.action, r.after])).toEqual([
      ['importHealthObservations', { queued: 2, firstId: `${run}:1`, lastId: `${run}:2` }],
    ]);
  });
});
