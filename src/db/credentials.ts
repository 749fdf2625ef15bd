/**
 * What authentication needs to know about a client, cached per isolate so verifying a request
 * costs no D1 round trip on the hot path. Entries live CACHE_TTL_MS: a deactivation or rotation
 * made through another isolate takes effect everywhere within that time, and at once in the
 * isolate that made it (it evicts its own entry).
 */

import type { PayerPolicy } from '../domain/payer-rules';
import { decryptSecret } from '../security/secrets';
import { findClient } from './clients';

export const CACHE_TTL_MS = 2_000;

export interface ClientCredentials {
  clientId: string;
  clientSecretHash: string;
  applicationTokenHash: string;
  applicationTokenActive: boolean;
  /** Decrypted only in memory; null when the client has no active CryptoToken. */
  cryptoToken: string | null;
  rateLimitPerSecond: number | null;
  /** Settlement partners the client routes through (PIX health scope). */
  partners: string[];
  /** Names the client in its charge locators (domain/location.ts). */
  locationKey: string;
  /** Where its Cash-Ins may be registered (domain/payer-rules.ts). */
  payerPolicy: PayerPolicy;
}

const cache = new Map<string, { value: ClientCredentials | null; expiresAt: number }>();

export async function loadCredentials(env: Env, clientId: string): Promise<ClientCredentials | null> {
  const now = Date.now();
  const hit = cache.get(clientId);
  if (hit && hit.expiresAt > now) return hit.value;
  const row = await findClient(env, clientId);
  const value: ClientCredentials | null = row
    ? {
        clientId: row.id,
        clientSecretHash: row.clientSecretHash,
        applicationTokenHash: row.applicationTokenHash,
        applicationTokenActive: row.applicationTokenActive,
        cryptoToken: row.cryptoTokenSealed
          ? await decryptSecret(row.cryptoTokenSealed, env.DATA_ENCRYPTION_KEY)
          : null,
        rateLimitPerSecond: row.rateLimitPerSecond,
        partners: row.partners,
        payerPolicy: row.payerPolicy,
        // Migration 0008 gave every existing client a key and onboarding always writes one.
        locationKey: row.locationKey ?? failClosed(`client ${row.id} has no location key`),
      }
    : null;
  if (cache.size > 50_000) cache.clear();
  cache.set(clientId, { value, expiresAt: now + CACHE_TTL_MS });
  return value;
}

export function forgetCredentials(clientId: string): void {
  cache.delete(clientId);
}

function failClosed(reason: string): never {
  throw new Error(reason);
}
