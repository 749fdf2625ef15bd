/**
 * What one task run learned about the real partners it asked (charge reads before an expiry,
 * re-reads of paid Cash-Ins): a partner that did not answer is not asked again in the same run, so
 * an outage costs one time-out per run, not one per task; and re-reads are capped per run.
 */
import { payerRulesOf } from '../../../src/db/clients';
import type { PayerRules } from '../../../src/domain/payer-rules';
import type { LedgerContext } from '../ledger-context';

export class PartnerReads {
  private readonly down = new Set<string>();
  /** Re-reads of paid Cash-Ins made in this run (return-rechecks.ts caps them). */
  rechecks = 0;
  private rules: Promise<PayerRules> | undefined;

  isDown(ispb: string): boolean {
    return this.down.has(ispb);
  }

  markDown(ispb: string): void {
    this.down.add(ispb);
  }

  /** The client's payer rules, read once per run and only when a Pix is applied. */
  payerRules(ledger: LedgerContext): Promise<PayerRules> {
    this.rules ??= payerRulesOf(ledger.env, ledger.profile.clientId);
    return this.rules;
  }
}
