/** DELETE /admin/clients/{clientId}/application-token (docs/contract.md, Operator API): every call stops. */
import { updateClient } from '../../db/clients';
import { forgetCredentials } from '../../db/credentials';
import { changeRecord, recorded } from '../../http/audit';
import type { Input } from '../../http/pipeline';
import { clientIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { requireClient } from './clients';
import { noContent, operator } from './shared';

async function handleDeactivateApplicationToken({ request, rc }: Input): Promise<Response> {
  const { env } = rc;
  const client = await requireClient(request, env);
  const audit = changeRecord(rc, 'deactivateApplicationToken', new URL(request.url).pathname, {
    before: { applicationTokenActive: client.applicationTokenActive },
    after: { applicationTokenActive: false },
  });
  await updateClient(env, client.id, { applicationTokenActive: false, updatedAt: Date.now() }, audit);
  recorded(rc);
  forgetCredentials(client.id);
  return new Response(null, { status: 204 });
}

export const deactivateApplicationToken = route(
  operator({
    role: 'ADMIN',
    method: 'delete',
    path: '/admin/clients/{clientId}/application-token',
    operationId: 'deactivateApplicationToken',
    summary: 'Deactivate the ApplicationToken',
    description: 'Every call with that ApplicationToken then answers 401 (inactive).',
    parameters: [clientIdParameter],
    success: noContent,
    errors: ['CLIENT_NOT_FOUND'],
  }),
  handleDeactivateApplicationToken,
);
