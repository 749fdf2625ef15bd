/**
 * The charge locator of a gateway-hosted BR Code location (the sandbox partner's) and of an
 * open-finance payment URL: the client's location key (22 characters) + the charge's 7-character
 * internalCode, so the location fits in 77 characters. The key is random (ids.ts, newLocationKey),
 * drawn at onboarding, unrelated to the client's id, and also begins the client's TxIds: anyone may
 * see a QR code, and the client id must not be read from it (it names the client at POST
 * /auth/token). Locators issued before carried the client UUID's bytes in that place (clientKey);
 * they still resolve, so a charge already handed out stays payable.
 */
import { fromBase64Url, toBase64Url } from '../security/encoding';
import { INTERNAL_CODE_SOURCE } from './internal-code';

/** A key, then a 7-character code of either form (internal-code.ts; a recurrence's is random). */
const LOCATOR = new RegExp(`^([A-Za-z0-9_-]{22})(${INTERNAL_CODE_SOURCE})$`);

/** The charge a locator names: its key (a location key, or a legacy client key) and internalCode. */
export function parseLocator(locator: string): { key: string; internalCode: string } | undefined {
  const match = LOCATOR.exec(locator);
  return match ? { key: match[1] as string, internalCode: match[2] as string } : undefined;
}

/** The legacy key of locators issued before location keys: base64url of the client UUID's bytes. */
export function clientKey(clientId: string): string {
  const hex = clientId.replace(/-/g, '');
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return toBase64Url(bytes);
}

/** The client id a legacy key carries (clientKey's inverse), or undefined. */
export function legacyClientId(key: string): string | undefined {
  const bytes = fromBase64Url(key);
  if (bytes?.length !== 16) return undefined;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Path after the host: `/pix/qr/` + location key (22) + internalCode (7). */
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
