/**
 * A webhook to a port where nothing listens: the recorded error says no HTTP answer came from that
 * host and port, refused or dropped, and where to look; it used to read only "network error:
 * Network connection lost.", as if a connection had been made and lost.
 */
import { expect, it } from 'vitest';
import { postWebhook } from '../../src/webhooks/post';

it('names the host and port, and says the connection was refused or dropped', async () => {
  const outcome = await postWebhook(
    { eventId: 'evt_1_x', eventType: 'CASHIN_PAID', url: 'http://127.0.0.1:9/hooks', data: {} } as never,
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    { timeoutMs: 5_000 },
  );
  expect(outcome.kind).toBe('failed');
  const error = (outcome as { error: string }).error;
  expect(error).toMatch(
    /^no HTTP answer from 127\.0\.0\.1:9: connection refused or dropped \(is the receiver listening there\?\)/,
  );
  expect(error).not.toMatch(/^network error/);
});
