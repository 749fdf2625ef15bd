/** GET /.well-known/jwks.json (docs/contract.md, BR Code): the key that verifies the charge payloads. */
import * as v from 'valibot';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { named } from '../../schemas/named';
import { signingKey } from '../../security/jws';
import { route } from '../route-table';

const Jwks = named(
  'Jwks',
  v.object({
    keys: v.array(
      v.object({
        kty: v.literal('EC'),
        crv: v.literal('P-256'),
        x: v.string(),
        y: v.string(),
        kid: v.string(),
        use: v.literal('sig'),
        alg: v.literal('ES256'),
      }),
    ),
  }),
);

async function handleJwks({ env }: Input): Promise<Response> {
  const key = await signingKey(env.PIX_SIGNING_KEY);
  return json({ keys: [key.publicJwk] }, 200, { 'cache-control': 'public, max-age=300' });
}

export const getJwks = route(
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'getJwks',
    summary: 'Key set that verifies charge payloads',
    description:
      "Sandbox partner only: the key of the gateway-hosted charge payloads. A real partner's payloads are signed by its PSP, with the PSP's certificate.",
    tag: 'PIX location',
    auth: 'none',
    success: { '200': { description: 'The public keys (ES256).', schema: Jwks } },
  },
  handleJwks,
);
