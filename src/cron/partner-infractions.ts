/**
 * MED infractions a real partner reports (docs/contract.md, Disputes), against the ledgers: every
 * minute each partner's recent infractions are read, each is tied to its payment's client through
 * the Pix the partner received (its txid names the client, as for received Pix), and recorded:
 * opened with its hold, then closed with the partner's decision. Both are idempotent in the ledger,
 * so reading the same infraction every run moves nothing twice. The money of an ACCEPTED one leaves
 * by the bank's return, which the received-Pix sweep books (partner-notices.ts).
 */
import { ledgerOf } from '../../durable-objects/stubs';
import { clientOfTxId } from '../db/client-keys';
import { errorFields, log } from '../infra/log';
import type { BcbApiPixPartner } from '../partners/bcb-api-pix/adapter';
import { declaredPartners } from '../partners/config';
import type { ReportedInfraction } from '../partners/port';
import { bcbPartner } from '../partners/port-registry';

/** How far back each sweep reads: infractions still undecided are read again until closed. */
export const INFRACTION_LOOKBACK_MS = 14 * 24 * 3_600_000;
/** A decided infraction is applied again for this long after its decision, then left alone. */
export const DECIDED_KEPT_MS = 24 * 3_600_000;

/** One infraction into its client's ledger; false when its payment names no client (yet). */
export async function applyInfraction(env: Env, partner: BcbApiPixPartner, infraction: ReportedInfraction) {
  const pix = await partner.receivedPix(infraction.endToEndId);
  const txid = pix.ok ? pix.value?.txid : undefined;
  const clientId = txid === undefined ? undefined : await clientOfTxId(env, txid);
  if (!clientId) return false;
  const ledger = ledgerOf(env, clientId);
  const opened = await ledger.dispute({
    kind: 'partner-open',
    id: infraction.endToEndId,
    disputeId: infraction.id,
    openedAt: infraction.openedAt,
    respondBy: infraction.respondBy,
    ...(infraction.amountCents !== undefined && { amountCents: infraction.amountCents }),
  });
  if (!opened.ok)
    log('warn', 'an infraction was not recorded', { ispb: partner.ispb, detail: opened.problem.detail });
  if (infraction.status !== 'OPEN')
    await ledger.dispute({ kind: 'partner-close', id: infraction.endToEndId, outcome: infraction.status });
  return true;
}

/**
 * Cron, every run (each minute): the sweep is Efí's only way in, and a block not passed on at once
 * is money the client can still pay out.
 */
export async function sweepPartnerInfractions(env: Env, now = Date.now()): Promise<void> {
  for (const declared of declaredPartners(env)) {
    if (declared.kind !== 'bcb-api-pix') continue;
    try {
      const partner = bcbPartner(env, declared.ispb);
      const listed = partner ? await partner.infractions(now - INFRACTION_LOOKBACK_MS) : undefined;
      if (!partner || !listed?.ok) continue; // down: the next sweep reads the same window
      for (const infraction of listed.value)
        if (infraction.status === 'OPEN' || (infraction.closedAt ?? now) > now - DECIDED_KEPT_MS)
          await applyInfraction(env, partner, infraction);
    } catch (error) {
      log('error', 'infraction sweep failed', { ispb: declared.ispb, ...errorFields(error) });
    }
  }
}
