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

/** Path after the host: `/pix/qr/` + client key (22) + internalCode (7). */
const LOCATION_PATH_LENGTH = '/pix/qr/'.length + 22 + 7;
/** BR Code field 26.25 holds 77 characters (brcode.ts), so the host[:port] holds the rest. */
export const MAX_LOCATION_HOST_LENGTH = 77 - LOCATION_PATH_LENGTH;

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST_PORT = new RegExp(`^${LABEL}(?:\\.${LABEL})*(?::(\\d{1,5}))?$`);

/** A host[:port] (RFC 1123 names or IPv4) that fits the 77-character BR Code location. */
export function isValidLocationHost(host: string): boolean {
  const match = HOST_PORT.exec(host);
  if (!match || host.length > MAX_LOCATION_HOST_LENGTH) return false;
  const port = match[1] === undefined ? 1 : Number(match[1]);
  return port >= 1 && port <= 65_535;
}

/**
 * The host the BR Code location names (docs/contract.md, BR Code): PIX_LOCATION_HOST when configured (always
 * in production); in local staging the request's Host when it is a valid host[:port] that fits, else the
 * server's own local address, so a Cash-In is never refused for the Host a caller sent.
 */
export function locationHost(configured: string, requestUrl: URL): string {
  if (configured) return configured;
  if (isValidLocationHost(requestUrl.host)) return requestUrl.host;
  return requestUrl.port && isValidLocationHost(`localhost:${requestUrl.port}`)
    ? `localhost:${requestUrl.port}`
    : 'localhost';
}
