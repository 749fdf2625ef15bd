/**
 * Health queue consumer: hands each batch of observations to the platform's HealthAnalyzer. The
 * analyzer remembers observation ids, so a redelivered batch is harmless; a failure retries the
 * whole batch.
 */
import { healthAnalyzer } from '../../durable-objects/health-stub';

export const HEALTH_QUEUES = new Set(['connectpsp-health-signals', 'connectpsp-health-signals-production']);

export async function consumeObservations(batch: MessageBatch, env: Env): Promise<void> {
  await healthAnalyzer(env).ingest(batch.messages.map((m) => m.body));
  batch.ackAll();
}
