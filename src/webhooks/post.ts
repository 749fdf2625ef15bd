/**
 * One attempt at one event: build the envelope, sign it, POST it with a time-out and classify the
 * answer. Never throws: every way a POST can go wrong becomes an outcome the ledger records.
 */
import { envelope } from './envelope';
import { signWebhook } from './signature';
import type { AttemptOutcome, ClaimedWebhook } from './types';

/** A 2xx must arrive within this long (docs/contract.md, Webhooks). */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface PostOptions {
  now?: number;
  timeoutMs?: number;
}

/**
 * What an operator reads when no HTTP answer came. The runtime reports a refused connection (nothing
 * listening) and one dropped mid-way with the same words, "Network connection lost.", so the text
 * names both and where to look rather than suggesting a connection was ever made.
 */
function networkError(url: string, message: string): string {
  let where = url;
  try {
    const u = new URL(url);
    where = `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {}
  return `no HTTP answer from ${where}: connection refused or dropped (is the receiver listening there?): ${message}`.slice(
    0,
    200,
  );
}

export async function postWebhook(
  event: ClaimedWebhook,
  secret: string,
  { now = Date.now(), timeoutMs = DELIVERY_TIMEOUT_MS }: PostOptions = {},
): Promise<AttemptOutcome> {
  const body = JSON.stringify(envelope(event.eventType, event.data, now));
  const timestamp = Math.floor(now / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'ConnectPSP-Webhooks/2.2',
    'webhook-id': event.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await signWebhook(secret, event.eventId, timestamp, body),
  };
  try {
    const response = await fetch(event.url, {
      method: 'POST',
      headers,
      body,
      // A redirect is not a success, and following one could lead past the URL guard.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300)
      return { kind: 'delivered', status: response.status };
    return { kind: 'failed', status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      return { kind: 'failed', error: `no answer within ${timeoutMs / 1000} s` };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', error: networkError(event.url, message) };
  }
}
