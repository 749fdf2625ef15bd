/**
 * The audit trail is complete: every changing operator route, called as the break-glass ADMIN_TOKEN
 * with its documented example (routes that move global staging state get a refused body or
 * partner instead), leaves exactly one record naming the request; no secret any of them handled
 * appears in any record; the trail cannot be edited or deleted, even by SQL, and a record older than
 * the 5 years it must be kept is still listed after the cron's sweeps and an archive run.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../../src/index';
import { fillPath, ROUTES } from '../../security/routes';
import { ADMIN_TOKEN, admin, onboardClient } from '../../support/harness';
import { auditTrail, createOperator } from '../../support/operators';

const CHANGING = ROUTES.filter((r) => r.spec.auth === 'operator' && r.method !== 'GET');
/** Routes whose effect is not scoped to one client: exercised with a body or partner they refuse. */
const GLOBAL = new Set([
  'injectPartnerFault',
  'clearPartnerFaults',
  'importHealthObservations',
  'advanceAnalyzer',
]);

describe('audit trail', () => {
  it('records exactly one record per changing admin call, and never a secret', async () => {
    const secrets: string[] = [ADMIN_TOKEN];
    const operator = await createOperator('ADMIN');
    secrets.push(operator.token);
    expect(CHANGING.length).toBeGreaterThan(10);
    for (const route of CHANGING) {
      const client = await onboardClient();
      secrets.push(client.clientSecret, client.applicationToken, client.cryptoToken, client.webhookSecret);
      const global = GLOBAL.has(route.spec.operationId) || route.template.startsWith('/admin/partners');
      const path = fillPath(route, {
        clientId: client.clientId,
        id: crypto.randomUUID(),
        eventId: `evt_${crypto.randomUUID()}`,
        operatorId:
          route.spec.operationId === 'deleteOperator'
            ? (await createOperator('VIEWER')).operatorId
            : 'op_0000000000000000',
        ispb: '99999999',
      });
      const body = route.spec.body ? (global ? { notAField: true } : route.example) : undefined;
      const res = await admin(path, route.method, body);
      const where = `${route.key} → ${res.status}`;
      expect(res.status, where).toBeLessThan(500);
      const text = await res.text();
      for (const match of text.matchAll(
        /"(?:token|cryptoToken|clientSecret|applicationToken|webhookSecret)":"([^"]+)"/g,
      ))
        secrets.push(match[1] as string);
      const records = (await auditTrail()).filter((r) => r.requestId === res.headers.get('x-request-id'));
      expect(records, where).toHaveLength(1);
      expect(records[0], where).toMatchObject({
        action: route.spec.operationId,
        actor: { kind: 'ADMIN_TOKEN' },
      });
      expect(records[0]?.result, where).toBe(res.status < 400 ? 'OK' : JSON.parse(text).code);
    }
    const trail = JSON.stringify(await auditTrail());
    for (const secret of secrets) expect(trail.includes(secret), 'a secret is in the trail').toBe(false);
  }, 180_000);

  it('keeps what a client change was, before and after', async () => {
    const client = await onboardClient();
    const res = await admin(`/admin/clients/${client.clientId}`, 'PATCH', { limits: { daily: 800 } });
    expect(res.status).toBe(200);
    const [record] = (await auditTrail('action=patchClient')).filter(
      (r) => r.requestId === res.headers.get('x-request-id'),
    );
    expect(record).toMatchObject({
      before: { limits: {} },
      after: { limits: { daily: 80000 } },
      result: 'OK',
    });
  });

  it('pages newest first with a cursor bound to its filters, and refuses a forged one', async () => {
    for (let i = 0; i < 3; i++) await onboardClient();
    const first = await admin('/admin/audit?limit=2&action=createClient');
    const page = (await first.json()) as { items: { id: string }[]; nextCursor: string };
    expect(page.items).toHaveLength(2);
    const next = await admin(
      `/admin/audit?limit=2&action=createClient&cursor=${encodeURIComponent(page.nextCursor)}`,
    );
    expect(next.status).toBe(200);
    const second = (await next.json()) as { items: { id: string }[] };
    expect(second.items.map((r) => r.id)).not.toContain(page.items[0]?.id);
    const other = await admin(`/admin/audit?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`);
    expect(other.status).toBe(400);
    const forged = await admin(
      `/admin/audit?limit=2&action=createClient&cursor=${encodeURIComponent(`${page.nextCursor}x`)}`,
    );
    expect(forged.status).toBe(400);
    expect(Object.keys(((await forged.json()) as { errors: object }).errors)).toEqual(['cursor']);
  });

  it('filters by period, and names a bad bound', async () => {
    await onboardClient();
    expect((await auditTrail('from=2100-01-01')).length).toBe(0);
    expect((await auditTrail('to=2000-01-01')).length).toBe(0);
    const today = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
    expect((await auditTrail(`from=${today}&action=createClient`)).length).toBeGreaterThan(0);
    const bad = await admin('/admin/audit?from=yesterday');
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toEqual(['from']);
    const unknown = await admin('/admin/audit?who=me');
    expect(unknown.status).toBe(400);
  });

  it('keeps a 6-year-old record: listed after the cron sweeps and an archive run', async () => {
    const at = Date.now() - 6 * 366 * 86_400_000;
    const id = `aud_${crypto.randomUUID()}`;
    const email = `retired-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await env.DB.prepare(
      `INSERT INTO audit_records (id, at, actor_kind, operator_id, email, action, target, before, after, result, request_id)
       VALUES (?, ?, 'OPERATOR', 'op_retired', ?, 'patchClient', '/admin/clients/x', NULL, NULL, 'OK', ?)`,
    )
      .bind(id, at, email, crypto.randomUUID())
      .run();
    const client = await onboardClient();
    const archived = await admin(`/admin/clients/${client.clientId}/archive`, 'POST', {
      before: new Date().toISOString(),
    });
    expect(archived.status).toBe(200);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController(), env, ctx);
    await waitOnExecutionContext(ctx);
    const day = new Date(at).toISOString().slice(0, 10);
    const listed = (await auditTrail(`actor=${encodeURIComponent(email)}&from=${day}&to=${day}`)).map(
      (r) => r.id,
    );
    expect(listed).toEqual([id]);
  });

  it('cannot be edited or deleted, even by SQL', async () => {
    await onboardClient();
    await expect(env.DB.prepare("UPDATE audit_records SET result = 'OK'").run()).rejects.toThrow(
      /append-only/,
    );
    await expect(env.DB.prepare('DELETE FROM audit_records').run()).rejects.toThrow(/append-only/);
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'])
      expect((await admin('/admin/audit', method)).status).toBe(405);
  });
});
