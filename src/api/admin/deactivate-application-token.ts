/** DELETE /admin/clients/{clientId}/application-token (docs/contract.md, Operator API): every call stops. */
import { updateClient } from '../../db/clients';
import { forgetCredentials } from '../../db/credentials';
import type { Input } from '../../http/pipeline';
import { clientIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { requireClient } from './clients';
import { noContent, operator } from './shared';

async function handleDeactivateApplicationToken({ request, env }: Input): Promise<Response> {
  const client = await requireClient(request, env);
  await updateClient(env, client.id, { applicationTokenActive: false, updatedAt: Date.now() });
  forgetCredentials(client.id);
  return new Response(null, { status: 204 });
}

export const deactivateApplicationToken = route(
  operator({
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
