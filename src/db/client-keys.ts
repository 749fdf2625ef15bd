/**
 * Which client a public identifier names: a charge locator's key (domain/location.ts) or a Cash-In
 * TxId (domain/ids.ts). Both begin with the client's random location key, found through the unique
 * `clients_location_key_idx`; identifiers issued before location keys carry the client id itself
 * and still resolve. A client is returned only if it exists, so no Durable Object is ever brought
 * into being for a made-up identifier. Keys never change: found ones are kept per isolate.
 */
import { clientIdOfTxId, locationKeyOfTxId } from '../domain/ids';
import { legacyClientId } from '../domain/location';
import { clientIdByLocationKey } from './clients';
import { loadCredentials } from './credentials';

const found = new Map<string, string>();
const MAX_CACHED = 50_000;

async function byLocationKey(env: Env, key: string): Promise<string | undefined> {
  const hit = found.get(key);
  if (hit) return hit;
  const clientId = await clientIdByLocationKey(env, key);
  if (clientId) {
    if (found.size >= MAX_CACHED) found.clear();
    found.set(key, clientId);
  }
  return clientId;
}

async function existing(env: Env, clientId: string | undefined): Promise<string | undefined> {
  return clientId && (await loadCredentials(env, clientId)) ? clientId : undefined;
}

/** The client a charge locator's key names (its location key, or a legacy key of its id). */
export async function clientOfLocatorKey(env: Env, key: string): Promise<string | undefined> {
  return (await byLocationKey(env, key)) ?? (await existing(env, legacyClientId(key)));
}

/** The client a TxId of ours names, or undefined for a txid we never issued. */
export async function clientOfTxId(env: Env, txid: string): Promise<string | undefined> {
  const key = locationKeyOfTxId(txid);
  return (key && (await byLocationKey(env, key))) || (await existing(env, clientIdOfTxId(txid)));
}
