/**
 * The daily reconciliation's balance check (docs/operating.md, Daily reconciliation): the partner's
 * balance now against what our books hold there now, less what was already asked of the partner and
 * has not settled. A bank debits a payout or a devolution when it takes it; our books keep the money
 * until it settles, so without that figure every payout or return in flight would be a break. Read
 * after the day's heals, so what they booked is in it.
 */
import type { HeldAtPartner } from '../../durable-objects/ledger/reads/reconciliation-queries';
import { ledgerOf } from '../../durable-objects/stubs';
import { clientIdsAtPartnerAfter } from '../db/partner-clients';
import { partnerSuspenseHeld } from '../db/unapplied';
import type { BalanceFigures } from '../domain/reconciliation-matching';
import type { BcbApiPixPartner } from '../partners/bcb-api-pix/adapter';

/** Ledgers asked at once. */
const CONCURRENCY = 25;

/** Every client's accounts and suspense at the partner, and the partner-held receipts, now. */
async function heldAt(env: Env, ispb: string): Promise<HeldAtPartner> {
  const total = await partnerSuspenseHeld(env, ispb);
  for (let after = ''; ; ) {
    const ids = await clientIdsAtPartnerAfter(env, ispb, after, CONCURRENCY);
    if (ids.length === 0) break;
    for (const held of await Promise.all(ids.map((id) => ledgerOf(env, id).heldAtPartner(ispb)))) {
      total.balance += held.balance;
      total.inFlightOut += held.inFlightOut;
    }
    after = ids.at(-1) as string;
  }
  return total;
}

/** The figures of the check, or why it could not be made (the partner's balance unread). */
export async function balanceFigures(
  env: Env,
  partner: BcbApiPixPartner,
): Promise<{ figures: BalanceFigures } | { pending: string } | undefined> {
  const payouts = partner.payouts;
  if (!payouts) return undefined;
  const ours = await heldAt(env, partner.ispb);
  const theirs = await payouts.balance();
  if (!theirs.ok) return { pending: `balance: the partner did not answer (${theirs.failureCode})` };
  return { figures: { books: ours.balance, inFlightOut: ours.inFlightOut, theirs: theirs.value } };
}
