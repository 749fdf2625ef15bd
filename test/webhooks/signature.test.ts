import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/security/secrets';
import { signWebhook } from '../../src/webhooks/signature';

describe('signWebhook (Standard Webhooks v1)', () => {
  it('produces a signature the standardwebhooks library verifies', async () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({
      eventType: 'CASHIN_PAID',
      eventAt: '2026-01-01T00:00:00.000-03:00',
      data: {},
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await signWebhook(secret, 'evt_1', timestamp, body);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(await signWebhook(secret, 'evt_1', timestamp, body)).toBe(
      new Webhook(secret).sign('evt_1', new Date(timestamp * 1000), body),
    );
  });

  it('is bound to the id, the timestamp, the body and the secret', async () => {
    const secret = newWebhookSecret();
    const base = await signWebhook(secret, 'evt_1', 1_700_000_000, '{}');
    expect(await signWebhook(secret, 'evt_2', 1_700_000_000, '{}')).not.toBe(base);
    expect(await signWebhook(secret, 'evt_1', 1_700_000_001, '{}')).not.toBe(base);
    expect(await signWebhook(secret, 'evt_1', 1_700_000_000, '{ }')).not.toBe(base);
    expect(await signWebhook(newWebhookSecret(), 'evt_1', 1_700_000_000, '{}')).not.toBe(base);
  });

  it('matches a known vector (key = base64-decoded bytes after whsec_)', async () => {
    // Vector from the Standard Webhooks specification's reference libraries.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = await signWebhook(
      secret,
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('refuses a secret without the whsec_ prefix', async () => {
    await expect(signWebhook('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'id', 1, '{}')).rejects.toThrow(/whsec_/);
  });
});
