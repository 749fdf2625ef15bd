/** Partners with an open Cash-Out health incident, read from D1 at most every 10 s: routing avoids them. */
import { degradedPartners } from '../../src/db/health';

export class DegradedPartners {
  private cache: { at: number; partners: ReadonlySet<string> } | undefined;

  constructor(private readonly env: Env) {}

  async cashOut(): Promise<ReadonlySet<string>> {
    const now = Date.now();
    if (this.cache && now - this.cache.at < 10_000) return this.cache.partners;
    try {
      this.cache = { at: now, partners: await degradedPartners(this.env, 'CASH_OUT') };
    } catch {
      // Health is advice: without it, route on balance alone.
      this.cache = { at: now, partners: new Set() };
    }
    return this.cache.partners;
  }
}
