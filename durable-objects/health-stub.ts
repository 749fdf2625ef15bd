/** How the rest of the Worker reaches the platform's PIX health analyzer (an RPC stub). */
import type { HealthAnalyzer } from './health-analyzer';

/** The queue consumer, the operator API and the console all use this one instance. */
export function healthAnalyzer(env: Env) {
  return (env.HEALTH_ANALYZER as DurableObjectNamespace<HealthAnalyzer>).getByName('platform');
}
