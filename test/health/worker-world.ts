// The generator's reference world on our sandbox partners (test/support/health/our-partners.ts), and
// the HealthAnalyzer Durable Object the Workers tests feed.
import { env } from 'cloudflare:workers';
import type { HealthAnalyzer } from '../../durable-objects/health-analyzer';
import { WINDOW_MS } from '../../src/health';

export * from '../support/health/our-partners';

export function analyzer(name: string) {
  return (env.HEALTH_ANALYZER as DurableObjectNamespace<HealthAnalyzer>).getByName(name);
}

export function windowStart(ms: number): number {
  return Math.floor(ms / WINDOW_MS) * WINDOW_MS;
}
