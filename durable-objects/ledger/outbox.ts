/** Appends events to the outbox; always called inside the transaction of the change itself. */
import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { outbox } from './schema';

export interface OutboxEvent {
  aggregateId: string;
  eventType: string;
  data: unknown;
  webhookUrl: string | null;
  occurredAt: number;
}

export function appendEvent(db: DrizzleSqliteDODatabase<Record<string, unknown>>, event: OutboxEvent): void {
  db.insert(outbox)
    .values({ ...event, eventId: `evt_${crypto.randomUUID().replace(/-/g, '')}` })
    .run();
}
