/**
 * Reading a JSON request body defensively: size cap, media type, strict UTF-8, nesting cap, JSON
 * object only. Every failure is a 400 VALIDATION_ERROR naming `body`, never a 500. Every body is
 * read through a counting reader that stops at the cap, whether or not it declared a
 * Content-Length: a chunked upload of any size costs at most the cap in memory.
 */
import { readBodyWithin } from '../infra/body-limit';
import { validationError } from './validation';

const MAX_BODY_BYTES = 64 * 1024;
/**
 * Far deeper than any body of the API (a Cash-Out destination is 4 levels down), far shallower
 * than the call stack: code that walks a whole body (the idempotency fingerprint) recurses once per
 * level, and 30,000 levels fit in 64 KiB.
 */
const MAX_NESTING = 32;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const bodyError = (message: string) => validationError({ body: [message] }, message);

function checkMediaType(request: Request): void {
  const type = request.headers.get('content-type');
  if (type !== null && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw bodyError('Content-Type must be application/json');
  }
}

async function readCapped(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Uint8Array> {
  // A body that breaks off mid-way (the client went away) is a bad request, not our failure.
  const bytes = await readBodyWithin(request, maxBytes).catch(() => {
    throw bodyError('body could not be read to its end');
  });
  if (bytes === undefined) throw bodyError(`body must be at most ${maxBytes} bytes`);
  return bytes;
}

/**
 * The body as a JSON object (the idempotency fingerprint is computed from the parsed value).
 * `maxBytes`: a larger cap for a route whose body is a list (a batch).
 */
export async function readJsonObject(
  request: Request,
  maxBytes = MAX_BODY_BYTES,
): Promise<Record<string, unknown>> {
  checkMediaType(request);
  return parseJsonObject(await readCapped(request, maxBytes));
}

/** Bodies that are optional (sandbox actions): absent or empty means `{}`. */
export async function readOptionalJsonObject(request: Request): Promise<Record<string, unknown>> {
  const bytes = await readCapped(request);
  if (bytes.byteLength === 0) return {};
  checkMediaType(request);
  return parseJsonObject(bytes);
}

function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  if (bytes.byteLength === 0) throw bodyError('body is required');
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw bodyError('body must be UTF-8 encoded');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bodyError('body must be valid JSON');
  }
  if (nestingDepth(text) > MAX_NESTING)
    throw bodyError(`body must be nested at most ${MAX_NESTING} levels deep`);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw bodyError('body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Deepest array/object nesting of valid JSON text, found without recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}
