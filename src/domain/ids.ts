/**
 * Identifier generators. Randomness comes from the platform CSPRNG; rejection sampling keeps the
 * alphabet uniform.
 */
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

/** Cash-In TxId: the PIX charge txid, 26–35 alphanumerics (we issue 32). */
export function newCashInTxId(): string {
  return randomString(ALNUM, 32);
}

/** 7-character service code used for polling. */
export function newInternalCode(): string {
  return randomString(UPPER_ALNUM, 7);
}

/** Cash-Out transaction id. */
export function newUuid(): string {
  return crypto.randomUUID();
}

function utcStamp(ms: number): string {
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

export const END_TO_END_ID = /^[ED]\d{8}\d{12}[A-Za-z0-9]{11}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
