/**
 * The charge a BR Code location or open-finance payment URL names. These addresses are public: the
 * client is named by its location key, found in D1, so its Durable Object is touched only for a
 * client that exists (otherwise any well-formed locator would bring a new, empty ClientLedger and
 * its storage into being). A locator issued before location keys carries the client id itself
 * (domain/location.ts) and still resolves, so a charge already handed out stays payable.
 */

import { ledgerOf } from '../../durable-objects/stubs';
import { clientIdByLocationKey } from '../db/clients';
import { loadCredentials } from '../db/credentials';
import { legacyClientId, parseLocator } from '../domain/location';

async function clientOf(env: Env, key: string): Promise<string | undefined> {
  const byKey = await clientIdByLocationKey(env, key);
  if (byKey) return byKey;
  const legacy = legacyClientId(key);
  return legacy && (await loadCredentials(env, legacy)) ? legacy : undefined;
}

export async function chargeAt(env: Env, raw: string) {
  const parsed = parseLocator(raw);
  const clientId = parsed && (await clientOf(env, parsed.key));
  if (!parsed || !clientId) return null;
  const found = await ledgerOf(env, clientId).chargeLocation(parsed.internalCode);
  return found ? { locator: { clientId, internalCode: parsed.internalCode }, found } : null;
}
