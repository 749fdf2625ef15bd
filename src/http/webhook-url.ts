/**
 * Request-time check of a webhook target (docs/contract.md, Webhooks), for every route that accepts one
 * (POST /cash-in and POST /cash-out `webhookUrl`, PATCH /admin/clients `healthWebhookUrl`). Run it
 * after schema validation; the same guard runs again at delivery.
 */
import { isStaging } from '../config';
import { checkWebhookUrl } from '../webhooks/url-guard';
import { validationError } from './validation';

export function requireAllowedWebhookUrl(env: Env, url: string, field = 'webhookUrl'): void {
  const verdict = checkWebhookUrl(url, { production: !isStaging(env) });
  if (!verdict.ok) {
    throw validationError(
      { [field]: [`${field} ${verdict.reason}`] },
      `${field} is not an allowed webhook URL`,
    );
  }
}
