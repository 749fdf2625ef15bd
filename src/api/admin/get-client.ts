/** GET /admin/clients/{clientId} (docs/contract.md, Operator API): a client, without secrets. */
import { listClientAccounts } from '../../db/clients';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { clientIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { clientView, requireClient } from './clients';
import { Client } from './openapi-responses';
import { CLIENT, operator } from './shared';

async function handleGetClient({ request, env }: Input): Promise<Response> {
  const client = await requireClient(request, env);
  return json(clientView(env, client, await listClientAccounts(env, client.id)));
}

export const getClient = route(
  operator({
    role: 'VIEWER',
    method: 'get',
    path: '/admin/clients/{clientId}',
    operationId: 'getClient',
    summary: 'Read a client (no secrets)',
    parameters: [clientIdParameter],
    success: {
      '200': {
        description: 'The client.',
        schema: Client,
        examples: { client: example('Client', CLIENT) },
      },
    },
    errors: ['CLIENT_NOT_FOUND'],
  }),
  handleGetClient,
);
