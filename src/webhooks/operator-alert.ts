/**
 * Operator alerts (docs/operating.md, Daily reconciliation): one POST to OPERATOR_ALERT_URL, signed
 * exactly like a client webhook (Standard Webhooks, keyed by OPERATOR_ALERT_SECRET), so the same
 * library verifies both. `webhook-id` is fixed per alert: a receiver drops a repeat.
 */
import { postWebhook } from './post';
import type { AttemptOutcome } from './types';

interface AlertEnv {
  OPERATOR_ALERT_URL?: unknown;
  OPERATOR_ALERT_SECRET?: unknown;
}

/** Whether alerts are configured (config.ts refuses a URL without a valid secret). */
export function operatorAlertsOn(env: AlertEnv): boolean {
  return typeof env.OPERATOR_ALERT_URL === 'string' && env.OPERATOR_ALERT_URL !== '';
}

export async function postOperatorAlert(
  env: AlertEnv,
  alert: { id: string; eventType: string; data: unknown },
): Promise<AttemptOutcome | undefined> {
  if (!operatorAlertsOn(env) || typeof env.OPERATOR_ALERT_SECRET !== 'string') return undefined;
  return postWebhook(
    { eventId: alert.id, eventType: alert.eventType, data: alert.data, url: String(env.OPERATOR_ALERT_URL) },
    env.OPERATOR_ALERT_SECRET,
  );
}
