/**
 * The charge locator names both the client and the charge in a short path segment, so the BR Code
 * location fits in 77 characters and resolves to the client's Durable Object without a lookup
 * table: base64url of the client UUID's 16 bytes (22 chars) + the 7-char internalCode.
 */
import { fromBase64Url, toBase64Url } from '../security/encoding';

const LOCATOR = /^([A-Za-z0-9_-]{22})([A-Z0-9]{7})$/;

export function clientKey(clientId: string): string {
  const hex = clientId.replace(/-/g, '');
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return toBase64Url(bytes);
}

export function parseLocator(locator: string): { clientId: string; internalCode: string } | undefined {
  const match = LOCATOR.exec(locator);
  if (!match) return undefined;
  const bytes = fromBase64Url(match[1] as string);
  if (bytes?.length !== 16) return undefined;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const clientId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { clientId, internalCode: match[2] as string };
}
