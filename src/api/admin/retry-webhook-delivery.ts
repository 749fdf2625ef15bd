/** POST /admin/clients/{clientId}/webhook-deliveries/{eventId}/retry: a FAILED or GIVEN_UP delivery, now. */
import { ledgerOf } from '../../../durable-objects/stubs';
import { changeRecord, recorded } from '../../http/audit';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { clientIdParameter, eventIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { requireClient } from './clients';
import { WebhookDelivery } from './openapi-responses';
import { operator } from './shared';

async function handleRetryWebhookDelivery({ request, rc }: Input): Promise<Response> {
  const client = await requireClient(request, rc.env);
  const eventId = pathId(request, 'eventId') ?? '';
  // The retry and its audit record are one ClientLedger transaction.
  const audit = changeRecord(rc, 'retryWebhookDelivery', new URL(request.url).pathname, {
    after: { status: 'PENDING' },
  });
  const result = await ledgerOf(rc.env, client.id).retryWebhookDelivery(eventId, audit);
  if (result.ok) recorded(rc);
  return operationResponse(result);
}

export const retryWebhookDelivery = route(
  operator({
    role: 'OPERATOR',
    method: 'post',
    path: '/admin/clients/{clientId}/webhook-deliveries/{eventId}/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'Retry a FAILED or GIVEN_UP delivery now',
    description:
      'Any other state answers 422 RULE_VIOLATION; an unknown eventId 404 NOT_FOUND, as does a ' +
      'GIVEN_UP delivery whose 7 days after it ended have passed (it is no longer kept).',
    parameters: [clientIdParameter, eventIdParameter],
    success: { '200': { description: 'The delivery, PENDING again.', schema: WebhookDelivery } },
    errors: ['CLIENT_NOT_FOUND', 'NOT_FOUND', 'RULE_VIOLATION'],
  }),
  handleRetryWebhookDelivery,
);
