/**
 * The charge a BR Code location or open-finance payment URL names. These addresses are public and
 * carry the client's id, so the client must exist before its Durable Object is touched: otherwise
 * any well-formed locator would bring a new, empty ClientLedger (and its storage) into being.
 */

import { ledgerOf } from '../../durable-objects/stubs';
import { loadCredentials } from '../db/credentials';
import { parseLocator } from '../domain/location';

export async function chargeAt(env: Env, raw: string) {
  const locator = parseLocator(raw);
  if (!locator || !(await loadCredentials(env, locator.clientId))) return null;
  const found = await ledgerOf(env, locator.clientId).chargeLocation(locator.internalCode);
  return found ? { locator, found } : null;
}
