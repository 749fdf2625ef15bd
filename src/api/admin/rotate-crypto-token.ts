/** POST /admin/clients/{clientId}/crypto-token (docs/contract.md, Operator API): a new CryptoToken. */
import { updateClient } from '../../db/clients';
import { forgetCredentials } from '../../db/credentials';
import { changeRecord, recorded } from '../../http/audit';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { clientIdParameter } from '../../openapi/parameters';
import { encryptSecret, newCryptoToken } from '../../security/secrets';
import { route } from '../route-table';
import { requireClient } from './clients';
import { CryptoTokenIssued } from './openapi-responses';
import { operator } from './shared';

async function handleRotateCryptoToken({ request, rc }: Input): Promise<Response> {
  const { env } = rc;
  const client = await requireClient(request, env);
  const cryptoToken = newCryptoToken();
  // The record says that it was rotated, never the token.
  const audit = changeRecord(rc, 'rotateCryptoToken', new URL(request.url).pathname, {
    after: { cryptoTokenActive: true, rotated: true },
  });
  await updateClient(
    env,
    client.id,
    { cryptoTokenSealed: await encryptSecret(cryptoToken, env.DATA_ENCRYPTION_KEY), updatedAt: Date.now() },
    audit,
  );
  recorded(rc);
  forgetCredentials(client.id);
  return json({ cryptoToken }, 201);
}

export const rotateCryptoToken = route(
  operator({
    role: 'ADMIN',
    method: 'post',
    path: '/admin/clients/{clientId}/crypto-token',
    operationId: 'rotateCryptoToken',
    summary: 'Issue a new CryptoToken',
    description: 'The previous CryptoToken stops working at once.',
    parameters: [clientIdParameter],
    success: {
      '201': {
        description: 'The new CryptoToken.',
        schema: CryptoTokenIssued,
        examples: { token: example('New token', { cryptoToken: 'ct_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d' }) },
      },
    },
    errors: ['CLIENT_NOT_FOUND'],
  }),
  handleRotateCryptoToken,
);
