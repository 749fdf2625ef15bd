/**
 * Health queue consumer: hands each batch of observations to the platform's HealthAnalyzer. The
 * analyzer remembers observation ids, so a redelivered batch is harmless; a failure retries the
 * whole batch.
 */
import type { HealthAnalyzer } from '../../durable-objects/health-analyzer';

export const HEALTH_QUEUES = new Set(['connectpsp-health-signals', 'connectpsp-health-signals-production']);

export function healthAnalyzer(env: Env) {
  return (env.HEALTH_ANALYZER as DurableObjectNamespace<HealthAnalyzer>).getByName('platform');
}

export async function consumeObservations(batch: MessageBatch, env: Env): Promise<void> {
  await healthAnalyzer(env).ingest(batch.messages.map((m) => m.body));
  batch.ackAll();
}
