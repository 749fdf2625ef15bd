/**
 * Structured JSON logs, one object per line. Callers pass identifiers and outcomes only: never
 * secrets, tokens, signatures or full payer/payee documents. As a second line of defence every
 * string written is masked for what must never reach a log — access tokens and other JWS, webhook
 * secrets, sealed secrets, 64-hex CryptoTokens/signatures/digests, `Bearer` credentials and
 * CPF/CNPJ numbers — and errors are logged through `errorFields`, which drops the bound values
 * drizzle puts in its query errors.
 */

const SUSPECT = /eyJ|whsec_|v1\.|bearer|[0-9a-f]{64}|\d{11}|\d{3}\.\d{3}\.\d{3}-|\d{2}\.\d{3}\.\d{3}\//i;
const MASKS: [RegExp, string][] = [
  [/eyJ[\w-]*\.[\w-]*\.[\w-]*/g, '[jws]'],
  [/whsec_[A-Za-z0-9+/=]*/g, '[webhook-secret]'],
  [/\bv1\.[A-Za-z0-9+/=]{8,}\.[A-Za-z0-9+/=]{8,}/g, '[sealed]'],
  [/\bbearer\s+\S+/gi, 'Bearer [credential]'],
  [/(?<![0-9a-z])[0-9a-f]{64}(?![0-9a-z])/gi, '[hex64]'],
  [/\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}|\d{3}\.\d{3}\.\d{3}-\d{2}/g, '[document]'],
  // Any 11- or 14-digit run bounded by non-digits, wherever it stands (`pedido-12345678909`,
  // `cpf_98765432100`, `?doc=…`): a CPF or CNPJ inside an id is still a document.
  [/(?<!\d)(?:\d{14}|\d{11})(?!\d)/g, '[document]'],
];

/** `text` with every secret-looking or document-looking part masked. */
export function redact(text: string): string {
  if (!SUSPECT.test(text)) return text;
  let out = text;
  for (const [pattern, mask] of MASKS) out = out.replace(pattern, mask);
  return out;
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v)]));
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
  for (const key in fields) entry[key] = redactValue(fields[key]);
  const line = JSON.stringify(entry);
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}
