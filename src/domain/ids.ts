/**
 * Identifier generators. Randomness comes from the platform CSPRNG; rejection sampling keeps the
 * alphabet uniform. A transaction's internalCode comes from its client's counter instead
 * (internal-code.ts); a TxId carries it.
 */
import { INTERNAL_CODE_SOURCE } from './internal-code';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < limit) out += alphabet[b % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** The client UUID's 128 bits in base 62, 22 characters (the TxId's first part). */
function clientPart(clientId: string): string {
  let n = BigInt(`0x${clientId.replace(/-/g, '')}`);
  let out = '';
  for (let i = 0; i < 22; i++, n /= 62n) out = ALNUM[Number(n % 62n)] + out;
  return out;
}

/**
 * Cash-In TxId: the PIX charge txid, 26–35 alphanumerics. We issue 35: the client's location key
 * (22 characters, random, location.ts), so a partner's notification naming a txid reaches its
 * client's ClientLedger by one indexed look-up, while the txid a payer sees in the charge payload
 * tells nothing of the client's id; then the Cash-In's internalCode (7) and 6 random characters (72
 * bits with the code). Carrying the internalCode, the TxId of an archived Cash-In needs no index
 * entry of its own: it is found through its code's (archive-index.ts).
 */
export function newCashInTxId(locationKey: string, internalCode: string): string {
  if (!/^[A-Za-z0-9]{22}$/.test(locationKey))
    throw new RangeError('a TxId needs an alphanumeric location key');
  return locationKey + internalCode + randomString(ALNUM, 6);
}

/**
 * A real partner's recurring cycle charge: its TxId from the cycle's internal code (taken from the
 * client's counter once and kept until the charge is stored, recurrence-charge-ops.ts) and a suffix
 * derived from the client's location key, the recurrence and the cycle, so every attempt to create
 * that cycle's charge (a retry after a crash) sends the same `PUT /cobr/{txid}` and the partner
 * answers the first charge: a payer's bank never debits a cycle twice.
 */
export async function cycleChargeTxId(
  locationKey: string,
  internalCode: string,
  recurrenceId: string,
  cycle: number,
): Promise<string> {
  if (!/^[A-Za-z0-9]{22}$/.test(locationKey))
    throw new RangeError('a TxId needs an alphanumeric location key');
  const digest = new Uint8Array(
    await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(`${locationKey}:${recurrenceId}:${cycle}`),
    ),
  );
  const suffix = Array.from(digest.slice(7, 13), (b) => ALNUM[b % ALNUM.length]).join('');
  return locationKey + internalCode + suffix;
}

/** Location key, internalCode (either form, internal-code.ts), 6 more: a TxId of ours. */
const TXID_OF_OURS = new RegExp(`^([A-Za-z0-9]{22})(${INTERNAL_CODE_SOURCE})[A-Za-z0-9]{6}$`);

/** The location key a TxId of ours starts with, or undefined for any other txid. */
export function locationKeyOfTxId(txid: string): string | undefined {
  return TXID_OF_OURS.exec(txid)?.[1];
}

/**
 * TxIds issued before location keys began with the client UUID in base 62: the seeded benchmark
 * histories still do, and such charges must still reach their client.
 */
export function legacyCashInTxId(clientId: string, internalCode: string): string {
  return clientPart(clientId) + internalCode + randomString(ALNUM, 6);
}

/** A new client's location key: 22 random base-62 characters (131 bits). */
export function newLocationKey(): string {
  return randomString(ALNUM, 22);
}

/** The internalCode a TxId of ours carries (see newCashInTxId), or undefined when it has none. */
export function internalCodeOfTxId(txid: string): string | undefined {
  return TXID_OF_OURS.exec(txid)?.[2];
}

/** The client a legacy TxId (legacyCashInTxId) names, or undefined for any other txid. */
export function clientIdOfTxId(txid: string): string | undefined {
  if (!/^[A-Za-z0-9]{35}$/.test(txid)) return undefined;
  let n = 0n;
  for (const c of txid.slice(0, 22)) n = n * 62n + BigInt(ALNUM.indexOf(c));
  if (n >= 1n << 128n) return undefined;
  const hex = n.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Seven random characters of `A–Z0–9`: a recurrence's QR location code (checked against the hot
 * recurrences, which never leave the object), and the form internal codes had before the counter
 * scheme (the bench's seeded history, tests of archived rows of that time).
 */
export function randomCode(): string {
  return randomString(UPPER_ALNUM, 7);
}

/**
 * Outbox event ids, the webhooks' `webhook-id`: `evt_<seq>_<14 base-62>`. The outbox seq (unique for
 * ever in its object, AUTOINCREMENT) finds the event's delivery by its primary key, so no index on
 * the id is kept for 7 days (docs/storage-schema.md, Growth); the 83 random bits keep ids of different
 * clients apart.
 */
export function eventIdSuffix(): string {
  return `_${randomString(ALNUM, 14)}`;
}

/** The outbox seq an event id of ours carries, or undefined for any other id (older versions'). */
export function eventSeqOf(eventId: string): number | undefined {
  const match = /^evt_([1-9]\d{0,14})_[A-Za-z0-9]{14}$/.exec(eventId);
  return match ? Number(match[1]) : undefined;
}

/** Cash-Out transaction id. */
export function newUuid(): string {
  return crypto.randomUUID();
}

export function utcStamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

/**
 * End-to-end id as the central bank formats it: `E` (payment) or `D` (devolution) + the ISPB of
 * the institution that issues it + yyyyMMddHHmm (UTC) + 11 alphanumerics = 32 characters.
 */
export function newEndToEndId(kind: 'E' | 'D', ispb: string, atMs: number): string {
  return `${kind}${ispb}${utcStamp(atMs)}${randomString(ALNUM, 11)}`;
}

export const END_TO_END_ID = /^[ED][0-9A-Z]{8}\d{12}[A-Za-z0-9]{11}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Recurrence id, API Pix `RecId` (bacen/pix-api 2.9.0): `R`, `R` or `N` (retries after the due
 * date allowed or not), the receiving participant's ISPB (8), the creation date yyyyMMdd in
 * America/Sao_Paulo and 11 random letters and digits: 29 characters.
 */
export function newRecurrenceId(retries: boolean, ispb: string, brtDate: string): string {
  if (!/^[0-9A-Z]{8}$/.test(ispb) || !/^\d{4}-\d{2}-\d{2}$/.test(brtDate))
    throw new RangeError('recurrence id parts');
  return `R${retries ? 'R' : 'N'}${ispb}${brtDate.replaceAll('-', '')}${randomString(ALNUM, 11)}`;
}
