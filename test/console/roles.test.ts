/**
 * The console for every role, through real HTTP: sign-in with an operator token, who is signed in,
 * every page of CONSOLE_ROLES and the redeliver action; what a role cannot do is not offered, and a
 * forged post of it is refused 403 with one FORBIDDEN record. A deleted operator's session ends.
 */
import { describe, expect, it } from 'vitest';
import { CONSOLE_ROLES } from '../../src/console/session';
import { ROLES, roleAllows } from '../../src/domain/operators';
import { admin, BASE, call, onboardClient } from '../support/harness';
import { createOperator, recordsOf } from '../support/operators';

const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: BASE };

async function signIn(token: string) {
  const res = await call('/admin/console/login', {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({ token }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await (await call('/admin/console', { headers: { cookie } })).text();
  return { cookie, page, csrf: /name="csrf" value="([0-9a-f]{64})"/.exec(page)?.[1] as string };
}

const PAGES: Record<string, string> = {
  overview: '/admin/console',
  books: '/admin/console/books',
  audit: '/admin/console/audit',
};

describe('console roles', () => {
  it('every console entry is covered here', () => {
    expect(Object.keys(CONSOLE_ROLES).sort()).toEqual([...Object.keys(PAGES), 'redeliver'].sort());
  });

  for (const role of ROLES) {
    it(`${role}: signs in, sees who it is, reaches its pages, and redelivers only within its role`, async () => {
      const op = await createOperator(role);
      const { cookie, page, csrf } = await signIn(op.token);
      expect(page).toContain(op.email);
      expect(page).toContain(`data-role="${role}"`);
      for (const [name, path] of Object.entries(PAGES)) {
        const res = await call(path, { headers: { cookie } });
        expect(res.status, name).toBe(200);
        expect(await res.text(), name).toContain(op.email);
      }
      const client = await onboardClient();
      const res = await call('/admin/console/redeliver', {
        method: 'POST',
        headers: { ...FORM, cookie },
        body: new URLSearchParams({ csrf, clientId: client.clientId, eventId: 'evt_missing' }).toString(),
        redirect: 'manual',
      });
      const allowed = roleAllows(role, CONSOLE_ROLES.redeliver);
      expect(res.status).toBe(allowed ? 303 : 403);
      const records = await recordsOf(res);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        action: 'console.redeliver',
        actor: { kind: 'OPERATOR', operatorId: op.operatorId },
        result: allowed ? 'NOT_FOUND' : 'FORBIDDEN',
      });
    });
  }

  it('hides the redeliver button from a VIEWER', async () => {
    const op = await createOperator('VIEWER');
    const { page } = await signIn(op.token);
    expect(page).not.toContain('/admin/console/redeliver');
  });

  it("ends a deleted operator's session at once", async () => {
    const op = await createOperator('OPERATOR');
    const { cookie } = await signIn(op.token);
    expect(
      await (await call('/admin/console/books', { headers: { cookie }, redirect: 'manual' })).status,
    ).toBe(200);
    expect((await admin(`/admin/operators/${op.operatorId}`, 'DELETE')).status).toBe(204);
    const after = await call('/admin/console/books', { headers: { cookie }, redirect: 'manual' });
    expect(after.status).toBe(303);
    expect(await (await call('/admin/console', { headers: { cookie } })).text()).toContain('name="token"');
  });
});
