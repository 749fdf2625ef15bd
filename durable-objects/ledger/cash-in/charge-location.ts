/** What the BR Code location serves for a charge (src/http/charge-locator.ts), by internalCode only. */
import { cashInView } from '../../../src/domain/cash-in';
import { findCashInAnywhere } from '../archive/archive-reads';
import type { LedgerDb } from '../db';
import { accountAt } from '../ledger/ledger';
import type { LedgerContext, Profile } from '../ledger-context';
import { type CashInRow, cashInByInternalCode } from './cash-in-store';

export async function chargeLocation(ledger: LedgerContext, internalCode: string) {
  const row = cashInByInternalCode(ledger.db, internalCode);
  if (row) return locationOf(ledger.db, ledger.profile, row);
  // A closed charge archived answers as it did (its final status), not as unknown.
  const archived = await findCashInAnywhere(ledger, internalCode);
  return archived?.internalCode === internalCode ? locationOf(ledger.db, ledger.profile, archived) : null;
}

function locationOf(db: LedgerDb, profile: Profile | undefined, row: CashInRow) {
  const account = accountAt(db, row.partnerIspb, 'TRANSACTIONAL');
  return {
    cashIn: cashInView(row),
    amountCents: row.amount,
    requestedAtMs: row.requestedAt,
    expiresAtMs: row.expiresAt,
    accountNumber: account?.number ?? row.partnerIspb,
    merchantName: profile?.name ?? '',
    flow: row.flow,
    partnerIspb: row.partnerIspb,
    redirectUrl: row.redirectUrl,
    /** Set when a real partner's PSP hosts this charge: the gateway serves no payload for it. */
    pspLocation: row.pspLocation,
  };
}
