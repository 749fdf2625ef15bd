/**
 * Every operator route, for every role, through real HTTP; the routes and their roles come from the
 * route declarations (the staging router, so staging-only operator routes are in too), so a new
 * route is checked without being listed here. Below its role a request answers 403 FORBIDDEN,
 * changes nothing and leaves one FORBIDDEN record; within it, it reaches its handler, and a
 * changing one leaves exactly one record.
 */
import { describe, expect, it } from 'vitest';
import contract from '../../../docs/contract.md?raw';
import { ROLES, type Role, roleAllows } from '../../../src/domain/operators';
import { fillPath, ROUTES } from '../../security/routes';
import { admin, onboardClient } from '../../support/harness';
import { as, auditTrail, createOperator, type TestOperator } from '../../support/operators';

const OPERATOR_ROUTES = ROUTES.filter((r) => r.spec.auth === 'operator' || r.template.startsWith('/admin'));

/** The role table as docs/contract.md shows it, generated from the declarations. */
const roleTable = () =>
  OPERATOR_ROUTES.map((r) => `| \`${r.key}\` | ${r.spec.role ?? 'NONE'} |`)
    .sort()
    .join('\n');

const paramsFor = (clientId: string): Record<string, string> => ({
  clientId,
  id: crypto.randomUUID(),
  eventId: `evt_${crypto.randomUUID()}`,
  operatorId: 'op_0000000000000000',
  ispb: '31880826',
});

async function snapshot(clientId: string): Promise<string> {
  const client = await (await admin(`/admin/clients/${clientId}`)).text();
  const operators = await (await admin('/admin/operators')).text();
  return `${client}\n${operators}`;
}

describe('roles on every operator route', () => {
  it('every /admin route is an operator route that names its role, and the contract lists them all', () => {
    expect(OPERATOR_ROUTES.length).toBeGreaterThan(15);
    for (const route of OPERATOR_ROUTES) {
      expect(route.spec.auth, route.key).toBe('operator');
      expect(ROLES, route.key).toContain(route.spec.role);
      if (route.method === 'GET') expect(route.spec.role, route.key).toBe('VIEWER');
    }
    const block = /<!-- roles:begin -->\n[^\n]*\n[^\n]*\n([\s\S]*?)\n<!-- roles:end -->/.exec(contract)?.[1];
    expect(block, 'docs/contract.md role table').toBe(roleTable());
  });

  const operators = {} as Record<Role, TestOperator>;

  for (const role of ROLES) {
    it(`${role}: below the role 403 FORBIDDEN, nothing changes, one record; within it the handler runs`, async () => {
      operators[role] ??= await createOperator(role);
      const op = operators[role];
      for (const route of OPERATOR_ROUTES) {
        const required = route.spec.role as Role;
        const client = await onboardClient();
        const path = fillPath(route, paramsFor(client.clientId));
        const allowed = roleAllows(role, required);
        const before = await snapshot(client.clientId);
        // Within the role, a body that fails validation where there is one: the handler is reached
        // without changing global staging state (fault injection) for the other test files.
        const body = route.spec.body ? (allowed ? { notAField: true } : route.example) : undefined;
        const res = await as(op.token, path, route.method, body);
        const where = `${role} ${route.key} → ${res.status}`;
        const mine = (await auditTrail(`actor=${op.operatorId}`)).filter(
          (r) => r.requestId === res.headers.get('x-request-id'),
        );
        if (!allowed) {
          expect(res.status, where).toBe(403);
          expect(((await res.json()) as { code: string }).code, where).toBe('FORBIDDEN');
          expect(await snapshot(client.clientId), where).toBe(before);
          expect(mine, where).toHaveLength(1);
          expect(mine[0], where).toMatchObject({
            action: route.spec.operationId,
            result: 'FORBIDDEN',
            target: path,
          });
        } else {
          expect([401, 403], where).not.toContain(res.status);
          expect(res.status, where).toBeLessThan(500);
          expect(mine, where).toHaveLength(route.method === 'GET' ? 0 : 1);
          if (route.method !== 'GET')
            expect(mine[0], where).toMatchObject({
              action: route.spec.operationId,
              actor: { kind: 'OPERATOR', operatorId: op.operatorId, email: op.email },
            });
        }
      }
    }, 180_000);
  }
});
