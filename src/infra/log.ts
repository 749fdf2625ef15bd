/**
 * Structured JSON logs, one object per line. Callers pass identifiers and outcomes only: never
 * secrets, tokens, signatures or full payer/payee documents. As a second line of defence every
 * string written is masked for what must never reach a log — access tokens and other JWS, webhook
 * secrets, sealed secrets, 64-hex CryptoTokens/signatures/digests and `Bearer` credentials — and
 * CPF/CNPJ numbers where documents stand (see BARE_DOCUMENT: never inside an id). Errors are logged
 * through `errorFields`, which drops the bound values drizzle puts in its query errors.
 */

/** Secrets: masked in every string, whatever field it is in. */
const SECRET_SUSPECT =
  /eyJ|whsec_|v1\.|bearer|[0-9a-f]{64}|\d{3}\.\d{3}\.\d{3}-|\.[0-9A-Z]{3}\.[0-9A-Z]{3}\//i;
const SECRET_MASKS: [RegExp, string][] = [
  [/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, '[jws]'],
  [/whsec_[A-Za-z0-9+/=]*/g, '[webhook-secret]'],
  [/\bv1\.[A-Za-z0-9+/=]{8,}\.[A-Za-z0-9+/=]{8,}/g, '[sealed]'],
  [/\bbearer\s+\S+/gi, 'Bearer [credential]'],
  [/(?<![0-9a-z])[0-9a-f]{64}(?![0-9a-z])/gi, '[hex64]'],
  // Punctuated documents never occur inside our ids (UUIDs, TxIds, end-to-end ids), so they are
  // masked wherever they stand; the CNPJ form takes the alphanumeric CNPJ's root too.
  [/[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}|\d{3}\.\d{3}\.\d{3}-\d{2}/g, '[document]'],
];

/**
 * Bare documents: an 11- or 14-digit run, or an alphanumeric CNPJ (12 of [0-9A-Z] and 2 check
 * digits). A bare digit run is just as likely part of an id (a UUID has one in about 0.4 % of
 * cases), so these are masked only where documents are: in fields named for a document, in
 * free-text fields that carry bodies or messages from elsewhere, in path segments and query values
 * that are a document as a whole (an `externalReference` chosen as a CPF) — never inside an id.
 */
const BARE_DOCUMENT = /(?<![0-9A-Za-z])(?:\d{14}|\d{11}|[0-9A-Z]{12}\d{2})(?![0-9A-Za-z])/g;
const DIGIT_RUN = /(?<!\d)(?:\d{14}|\d{11})(?!\d)/g;
const DOCUMENT_ALONE =
  /^(?:\d{11}|\d{14}|[0-9A-Z]{12}\d{2}|\d{3}\.\d{3}\.\d{3}-\d{2}|[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2})$/;
/** Fields that hold a document, or a value that may be one (a CPF Pix key). */
const DOCUMENT_FIELD = /document|cpf|cnpj|taxid|pixkey/i;
/** Fields that carry text from elsewhere (bodies, partner answers, error messages). */
const TEXT_FIELD = /^(?:body|payload|response|responseBody|detail|message|reason|error|cause)$/i;

/** `text` with every secret-looking part masked (safe on ids: none of them looks like a secret). */
export function redact(text: string): string {
  if (!SECRET_SUSPECT.test(text)) return text;
  let out = text;
  for (const [pattern, mask] of SECRET_MASKS) out = out.replace(pattern, mask);
  return out;
}

/** Free text from elsewhere: secrets, and every 11/14-digit run or alphanumeric CNPJ in it. */
export function redactText(text: string): string {
  return redact(text).replace(BARE_DOCUMENT, '[document]').replace(DIGIT_RUN, '[document]');
}

/**
 * A request path as logs may show it: a partner's webhook secret (the segment after `webhook`,
 * whatever follows it and whatever the route answered) masked, a segment that is a document as a
 * whole masked, and query values that are CPF/CNPJ-shaped masked. Other segments are ids, kept as
 * they are.
 */
export function loggablePath(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (i > 0 && isWebhookSegment(segments[i - 1] as string) && segment !== '' && !/^pix$/i.test(segment)) {
      segments[i] = '***';
    } else if (DOCUMENT_ALONE.test(decoded(segment))) segments[i] = '[document]';
  }
  let out = segments.join('/');
  if (q >= 0) {
    const query = pathAndQuery
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        return DOCUMENT_ALONE.test(decoded(pair.slice(eq + 1)).trim())
          ? `${pair.slice(0, eq)}=[document]`
          : pair;
      });
    out += `?${query.join('&')}`;
  }
  return redact(out);
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

const isWebhookSegment = (segment: string) => decoded(segment).toLowerCase() === 'webhook';

function redactValue(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (DOCUMENT_FIELD.test(key)) return DOCUMENT_ALONE.test(value.trim()) ? '[document]' : redactText(value);
    if (TEXT_FIELD.test(key)) return redactText(value);
    if (key === 'path') return loggablePath(value);
    return redact(value);
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, key));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, k)]));
  }
  return value;
}

/**
 * What to log about an error: its name and message without drizzle's `params:` (the values bound
 * to a failed query: documents, hashes, sealed secrets), the same for its cause, and the stack
 * frames only (a stack starts with the message).
 */
export function errorFields(error: unknown): { error: string; cause?: string; stack?: string } {
  const describe = (e: unknown) =>
    e instanceof Error ? `${e.name}: ${e.message.split(/\nparams:/)[0]}` : String(e).split(/\nparams:/)[0];
  const fields: { error: string; cause?: string; stack?: string } = { error: describe(error) as string };
  if (error instanceof Error) {
    if (error.cause !== undefined) fields.cause = describe(error.cause) as string;
    const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line));
    if (frames && frames.length > 0) fields.stack = frames.join('\n');
  }
  return fields;
}

export function log(
  level: 'info' | 'warn' | 'error',
  message: string,
  fields: Record<string, unknown> = {},
): void {
  const entry: Record<string, unknown> = { level, message, time: new Date().toISOString() };
  for (const key in fields) entry[key] = redactValue(fields[key], key);
  const line = JSON.stringify(entry);
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

/** A request URL's path and query, the part a request log shows (through loggablePath). */
export function pathAndQuery(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}
