/**
 * Events and health observations leave through the outbox, written in the caller's transaction so
 * a state change and its event can never be separated; a flush task hands observations to their
 * queue, the dispatch task hands webhook events to delivery.
 */
import type { LedgerContext } from './context';
import { outbox } from './schema';

export interface WebhookEvent {
  aggregateId: string;
  eventType: string;
  data: unknown;
  webhookUrl: string | null;
  at: number;
}

/** Health observation of decisions §7 (the `at` instant in ms; serialized as ISO UTC). */
export interface ObservationInput {
  operation: 'CASH_IN' | 'CASH_OUT';
  partnerIspb: string;
  institutionIspb?: string | null;
  event: 'CREATED' | 'SETTLED' | 'FAILED' | 'EXPIRED' | 'RETURNED';
  failureCode?: string;
  latencyMs?: number;
  at: number;
}

const newEventId = () => `evt_${crypto.randomUUID().replace(/-/g, '')}`;

export function emitWebhook(ctx: LedgerContext, event: WebhookEvent): void {
  ctx.db
    .insert(outbox)
    .values({
      eventId: newEventId(),
      channel: 'webhook',
      aggregateId: event.aggregateId,
      eventType: event.eventType,
      data: event.data,
      webhookUrl: event.webhookUrl,
      occurredAt: event.at,
    })
    .run();
  // The delivery pipeline (webhook-deliveries.ts) adopts it and sends it when its turn comes.
  ctx.scheduler.schedule('dispatch-webhooks', 'all', event.at);
}

export function observe(ctx: LedgerContext, aggregateId: string, input: ObservationInput): void {
  const observation = {
    at: new Date(input.at).toISOString(),
    clientId: ctx.profile.clientId,
    operation: input.operation,
    partnerIspb: input.partnerIspb,
    ...(input.institutionIspb ? { institutionIspb: input.institutionIspb } : {}),
    event: input.event,
    ...(input.failureCode !== undefined && { failureCode: input.failureCode }),
    ...(input.latencyMs !== undefined && { latencyMs: input.latencyMs }),
  };
  ctx.db
    .insert(outbox)
    .values({
      eventId: newEventId(),
      channel: 'health',
      aggregateId,
      eventType: `OBSERVATION_${input.event}`,
      data: observation,
      webhookUrl: null,
      occurredAt: input.at,
    })
    .run();
  ctx.scheduler.schedule('flush-outbox', 'all', input.at);
}
