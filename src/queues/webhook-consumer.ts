/**
 * Consumer of the WEBHOOKS queue: for each message, claim the event from the client's ledger
 * (skipped when it was delivered, given up or superseded meanwhile), check the URL again, POST it
 * and report the outcome back. The ledger owns retries and ordering; a message is only retried by
 * the queue when the ledger could not be reached, and the ledger's lease re-sends it if even
 * that fails.
 */

import { ledgerOf } from '../../durable-objects/stubs';
import { isStaging } from '../config';
import { errorFields, log } from '../infra/log';
import { postWebhook } from '../webhooks/post';
import { webhookSecretOf } from '../webhooks/signing-secret';
import { type AttemptOutcome, type ClaimedWebhook, parseDeliveryMessage } from '../webhooks/types';
import { checkWebhookUrl } from '../webhooks/url-guard';

/** The webhook queue of each environment (wrangler.toml). */
export const WEBHOOK_QUEUES = new Set(['connectpsp-webhooks', 'connectpsp-webhooks-production']);

export async function consumeWebhooks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // Concurrently: one slow receiver must not hold the others back by its 10 s.
  await Promise.all(batch.messages.map((message) => consumeOne(message, env)));
}

async function consumeOne(message: Message<unknown>, env: Env): Promise<void> {
  const ref = parseDeliveryMessage(message.body);
  if (!ref) {
    log('error', 'malformed webhook message dropped', { messageId: message.id });
    message.ack();
    return;
  }
  try {
    const ledger = ledgerOf(env, ref.clientId);
    // RPC typing cannot map the `unknown` payload to a serializable type; it is JSON from the outbox.
    const claimed = (await ledger.claimWebhook(ref.eventId, ref.dispatch)) as ClaimedWebhook | null;
    if (claimed) {
      const outcome = await attempt(env, ref.clientId, claimed);
      await ledger.recordWebhookAttempt(ref.eventId, ref.dispatch, outcome);
      log(outcome.kind === 'delivered' ? 'info' : 'warn', 'webhook attempt', {
        clientId: ref.clientId,
        eventId: ref.eventId,
        eventType: claimed.eventType,
        outcome: outcome.kind,
        ...('status' in outcome && { status: outcome.status }),
        ...('error' in outcome && { error: outcome.error }),
      });
    }
    message.ack();
  } catch (error) {
    log('error', 'webhook delivery step failed', {
      clientId: ref.clientId,
      eventId: ref.eventId,
      ...errorFields(error),
    });
    message.retry({ delaySeconds: 5 });
  }
}

async function attempt(env: Env, clientId: string, event: ClaimedWebhook): Promise<AttemptOutcome> {
  const verdict = checkWebhookUrl(event.url, { production: !isStaging(env) });
  if (!verdict.ok) return { kind: 'refused', error: `URL refused: ${verdict.reason}` };
  const secret = await webhookSecretOf(env, clientId);
  if (secret === undefined) return { kind: 'failed', error: 'client not found' };
  return postWebhook(event, secret);
}
