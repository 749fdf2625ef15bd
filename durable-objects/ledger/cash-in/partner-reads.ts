/**
 * What one task run learned about the real partners it asked (charge reads before an expiry,
 * re-reads of paid Cash-Ins): a partner that did not answer is not asked again in the same run, so
 * an outage costs one time-out per run, not one per task; and re-reads are capped per run.
 */
import { findClient } from '../../../src/db/clients';
import type { LedgerContext } from '../context';

export class PartnerReads {
  private readonly down = new Set<string>();
  /** Re-reads of paid Cash-Ins made in this run (return-rechecks.ts caps them). */
  rechecks = 0;
  private blocked: Promise<string[]> | undefined;

  isDown(ispb: string): boolean {
    return this.down.has(ispb);
  }

  markDown(ispb: string): void {
    this.down.add(ispb);
  }

  /** The client's blocked payer documents, read once per run and only when a Pix is applied. */
  blockedPayerDocuments(ctx: LedgerContext): Promise<string[]> {
    this.blocked ??= findClient(ctx.env, ctx.profile.clientId).then((c) => c?.blockedPayerDocuments ?? []);
    return this.blocked;
  }
}
