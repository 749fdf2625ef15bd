/** Operators for tests: one per role, made through the API with the break-glass token. */
import type { AuditRecordBody } from '../../src/api/operators/list-audit';
import type { Role } from '../../src/domain/operators';
import { admin, call } from './harness';

export interface TestOperator {
  operatorId: string;
  email: string;
  role: Role;
  token: string;
}

let serial = 0;

export async function createOperator(role: Role, email?: string): Promise<TestOperator> {
  serial += 1;
  const res = await admin('/admin/operators', 'POST', {
    email: email ?? `${role.toLowerCase()}-${serial}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    role,
  });
  if (res.status !== 201) throw new Error(`operator not created: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A request as `token`: JSON body when given. */
export function as(token: string, path: string, method = 'GET', body?: unknown): Promise<Response> {
  return call(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/** Every audit record, newest first, walking the cursor. */
export async function auditTrail(query = ''): Promise<AuditRecordBody[]> {
  const items: AuditRecordBody[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '';
    const res = await admin(
      `/admin/audit?limit=500${sep}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (res.status !== 200) throw new Error(`audit: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { items: AuditRecordBody[]; nextCursor: string | null };
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** The records of one request, by the x-request-id it answered with. */
export async function recordsOf(res: Response): Promise<AuditRecordBody[]> {
  const id = res.headers.get('x-request-id');
  return (await auditTrail()).filter((r) => r.requestId === id);
}
