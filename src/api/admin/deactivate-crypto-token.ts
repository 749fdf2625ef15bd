/** DELETE /admin/clients/{clientId}/crypto-token (docs/contract.md, Operator API): financial operations stop. */
import { updateClient } from '../../db/clients';
import { forgetCredentials } from '../../db/credentials';
import type { Input } from '../../http/pipeline';
import { clientIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { requireClient } from './clients';
import { noContent, operator } from './shared';

async function handleDeactivateCryptoToken({ request, env }: Input): Promise<Response> {
  const client = await requireClient(request, env);
  await updateClient(env, client.id, { cryptoTokenSealed: null, updatedAt: Date.now() });
  forgetCredentials(client.id);
  return new Response(null, { status: 204 });
}

export const deactivateCryptoToken = route(
  operator({
    method: 'delete',
    path: '/admin/clients/{clientId}/crypto-token',
    operationId: 'deactivateCryptoToken',
    summary: 'Deactivate the CryptoToken',
    description: 'Financial operations then answer 403 CRYPTO_TOKEN_NOT_CONFIGURED.',
    parameters: [clientIdParameter],
    success: noContent,
    errors: ['CLIENT_NOT_FOUND'],
  }),
  handleDeactivateCryptoToken,
);
