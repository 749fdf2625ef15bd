/** DELETE /admin/clients/{clientId}/crypto-token (docs/contract.md, Operator API): financial operations stop. */
import { updateClient } from '../../db/clients';
import { forgetCredentials } from '../../db/credentials';
import { changeRecord, recorded } from '../../http/audit';
import type { Input } from '../../http/pipeline';
import { clientIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { requireClient } from './clients';
import { noContent, operator } from './shared';

async function handleDeactivateCryptoToken({ request, rc }: Input): Promise<Response> {
  const { env } = rc;
  const client = await requireClient(request, env);
  const audit = changeRecord(rc, 'deactivateCryptoToken', new URL(request.url).pathname, {
    before: { cryptoTokenActive: client.cryptoTokenSealed !== null },
    after: { cryptoTokenActive: false },
  });
  await updateClient(env, client.id, { cryptoTokenSealed: null, updatedAt: Date.now() }, audit);
  recorded(rc);
  forgetCredentials(client.id);
  return new Response(null, { status: 204 });
}

export const deactivateCryptoToken = route(
  operator({
    role: 'ADMIN',
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
