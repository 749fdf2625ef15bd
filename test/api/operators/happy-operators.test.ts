/** Operators: created with a token shown once, listed without it, removed with immediate effect. */
import { describe, expect, it } from 'vitest';
import { admin } from '../../support/harness';
import { as, auditTrail, createOperator, recordsOf } from '../../support/operators';

describe('operators', () => {
  it('creates an operator whose token opens /admin within its role, shown once and never listed', async () => {
    const op = await createOperator('VIEWER', 'Ana.Silva@Example.com');
    expect(op.email).toBe('ana.silva@example.com');
    expect(op.token).toMatch(/^opk_[A-Za-z0-9_-]{43}$/);
    const list = await admin('/admin/operators');
    const text = await list.text();
    expect(text).toContain(op.operatorId);
    expect(text).not.toContain(op.token);
    expect((await as(op.token, '/admin/operators')).status).toBe(200);
  });

  it('a deleted operator is refused on the very next request (401, no cache window)', async () => {
    const op = await createOperator('ADMIN');
    expect((await as(op.token, '/admin/operators')).status).toBe(200);
    const del = await admin(`/admin/operators/${op.operatorId}`, 'DELETE');
    expect(del.status).toBe(204);
    const after = await as(op.token, '/admin/operators');
    expect(after.status).toBe(401);
    expect(((await after.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    expect((await admin(`/admin/operators/${op.operatorId}`, 'DELETE')).status).toBe(404);
  });

  it('refuses a repeated email with 422 and bad input with 400 naming the field', async () => {
    await createOperator('VIEWER', 'twice@example.com');
    const again = await admin('/admin/operators', 'POST', { email: 'TWICE@example.com', role: 'ADMIN' });
    expect(again.status).toBe(422);
    expect(((await again.json()) as { code: string }).code).toBe('RULE_VIOLATION');
    for (const [body, field] of [
      [{ email: 'not-an-email', role: 'VIEWER' }, 'email'],
      [{ role: 'VIEWER' }, 'email'],
      [{ email: 'x@example.com', role: 'ROOT' }, 'role'],
      [{ email: 'x@example.com' }, 'role'],
      [{ email: 'x@example.com', role: 'VIEWER', token: 'opk_mine' }, 'token'],
    ] as const) {
      const res = await admin('/admin/operators', 'POST', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const problem = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(problem.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(problem.errors), JSON.stringify(body)).toContain(field);
    }
    const bad = await admin('/admin/audit?limit=0');
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toContain('limit');
  });

  it('records who created and removed an operator, without its token', async () => {
    const creator = await createOperator('ADMIN');
    const res = await as(creator.token, '/admin/operators', 'POST', {
      email: 'new.person@example.com',
      role: 'OPERATOR',
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { operatorId: string; token: string };
    const [record, ...more] = await recordsOf(res);
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      actor: { kind: 'OPERATOR', operatorId: creator.operatorId, email: creator.email },
      action: 'createOperator',
      target: `operator:${created.operatorId}`,
      after: { operatorId: created.operatorId, email: 'new.person@example.com', role: 'OPERATOR' },
      result: 'OK',
    });
    expect(JSON.stringify(await auditTrail())).not.toContain(created.token);
    const byActor = await auditTrail(`actor=${creator.operatorId}`);
    expect(byActor.map((r) => r.action)).toEqual(['createOperator']);
    expect((await auditTrail(`actor=${encodeURIComponent(creator.email)}`)).length).toBe(1);
  });
});
