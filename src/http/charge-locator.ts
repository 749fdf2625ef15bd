/**
 * The charge a BR Code location or open-finance payment URL names. These addresses are public: the
 * client is named by its location key, found in D1, so its Durable Object is touched only for a
 * client that exists (otherwise any well-formed locator would bring a new, empty ClientLedger and
 * its storage into being). A locator issued before location keys carries the client id itself
 * (domain/location.ts) and still resolves, so a charge already handed out stays payable.
 */

import { ledgerOf } from '../../durable-objects/stubs';
import { clientOfLocatorKey } from '../db/client-keys';
import { parseLocator } from '../domain/location';

export async function chargeAt(env: Env, raw: string) {
  const parsed = parseLocator(raw);
  const clientId = parsed && (await clientOfLocatorKey(env, parsed.key));
  if (!parsed || !clientId) return null;
  const found = await ledgerOf(env, clientId).chargeLocation(parsed.internalCode);
  return found ? { locator: { clientId, internalCode: parsed.internalCode }, found } : null;
}

/** The recurrence a QR journey's location (`/pix/rec/`) names, by the same locator shape. */
export async function recurrenceAt(env: Env, raw: string) {
  const parsed = parseLocator(raw);
  const clientId = parsed && (await clientOfLocatorKey(env, parsed.key));
  if (!parsed || !clientId) return null;
  return ledgerOf(env, clientId).recurrenceLocation(parsed.internalCode);
}
