/**
 * The client's webhook secret, decrypted from D1 and kept per isolate for a minute so a batch of
 * deliveries costs one D1 read per client. Never logged.
 */
import { findClient } from '../db/clients';
import { decryptSecret } from '../security/secrets';

const TTL_MS = 60_000;
const cache = new Map<string, { secret: string; until: number }>();

export async function webhookSecretOf(env: Env, clientId: string): Promise<string | undefined> {
  const now = Date.now();
  const hit = cache.get(clientId);
  if (hit && hit.until > now) return hit.secret;
  const client = await findClient(env, clientId);
  if (!client) return undefined;
  const secret = await decryptSecret(client.webhookSecretSealed, env.DATA_ENCRYPTION_KEY);
  if (cache.size > 10_000) cache.clear();
  cache.set(clientId, { secret, until: now + TTL_MS });
  return secret;
}
