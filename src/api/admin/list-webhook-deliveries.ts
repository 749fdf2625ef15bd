/** GET /admin/clients/{clientId}/webhook-deliveries: what was sent where, how it went, what is waiting. */
import { ledgerOf } from '../../../durable-objects/stubs';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { clientIdParameter, deliveryQueryParameters } from '../../openapi/parameters';
import * as cashIn from '../cash-in/shared';
import { route } from '../route-table';
import { requireClient } from './clients';
import { WebhookDeliveryPage } from './openapi-responses';
import { DeliveryQuerySchema } from './schemas';
import { operator } from './shared';

async function handleListWebhookDeliveries({
  request,
  env,
  query,
}: Input<{ query: typeof DeliveryQuerySchema }>): Promise<Response> {
  const client = await requireClient(request, env);
  const page = await ledgerOf(env, client.id).listWebhookDeliveries({
    ...(query.status !== undefined && { status: query.status }),
    ...(query.aggregateId !== undefined && { aggregateId: query.aggregateId }),
    limit: query.limit,
    ...(query.cursor !== undefined && { before: query.cursor }),
  });
  return json(page);
}

export const listWebhookDeliveries = route(
  operator({
    role: 'VIEWER',
    query: DeliveryQuerySchema,
    method: 'get',
    path: '/admin/clients/{clientId}/webhook-deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "List a client's webhook deliveries",
    description:
      'Newest first: what was sent where, how it went, what is waiting. A delivery that ended ' +
      '(DELIVERED, GIVEN_UP, UNDELIVERABLE) is listed for 7 days after it ended, then removed; PENDING, ' +
      'IN_FLIGHT and FAILED ones are listed until they end. DELIVERED and UNDELIVERABLE deliveries of ' +
      'an archived transaction move to the archive with it: a list by aggregateId still shows them ' +
      '(same items, order and fields, same 7 days); a list without aggregateId shows the deliveries ' +
      "still in the client's object (every open or GIVEN_UP one).",
    parameters: [clientIdParameter, ...deliveryQueryParameters],
    success: {
      '200': {
        description: 'One page of deliveries.',
        schema: WebhookDeliveryPage,
        examples: {
          page: example('One failed delivery', {
            items: [
              {
                eventId: 'evt_1042_4TqIGMZRqdmjOU',
                eventType: 'CASHIN_PAID',
                aggregateId: cashIn.cashInPaid.transactionId,
                url: 'https://loja.example.com.br/webhooks/pix',
                status: 'FAILED',
                attempts: 2,
                lastResponseStatus: 500,
                nextAttemptAt: '2026-11-21T13:50:00.000Z',
                lastAttemptAt: '2026-11-21T13:20:00.000Z',
                createdAt: '2026-11-21T13:18:02.481Z',
              },
            ],
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'CLIENT_NOT_FOUND'],
  }),
  handleListWebhookDeliveries,
);
