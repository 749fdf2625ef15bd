/**
 * Partners with an open Cash-Out incident (the HealthAnalyzer publishes them to D1), read at most
 * every 10 s: the Cash-Out executor's routing avoids them (cash-out/cash-out-exec.ts).
 */
import { degradedPartners } from '../../src/db/health';

const FRESH_MS = 10_000;

export class DegradedPartners {
  private cached: { at: number; partners: ReadonlySet<string> } | undefined;

  constructor(private readonly env: Env) {}

  async read(now = Date.now()): Promise<ReadonlySet<string>> {
    if (this.cached && now - this.cached.at < FRESH_MS) return this.cached.partners;
    try {
      this.cached = { at: now, partners: await degradedPartners(this.env, 'CASH_OUT') };
    } catch {
      // Health is advice: without it, route on balance alone.
      this.cached = { at: now, partners: new Set() };
    }
    return this.cached.partners;
  }
}
