/** What the BR Code location serves for a charge (src/http/charge-locator.ts), by internalCode only. */
import { eq } from 'drizzle-orm';
import { cashInView } from '../../src/domain/cash-in';
import type { Profile } from './context';
import type { LedgerDb } from './db';
import { accountAt } from './ledger';
import type { CashInRow } from './cash-in-store';
import { cashIns } from './schema';

export function chargeLocation(db: LedgerDb, profile: Profile | undefined, internalCode: string) {
  const row = db.select().from(cashIns).where(eq(cashIns.internalCode, internalCode)).get();
  return row ? locationOf(db, profile, row) : null;
}

/** The location of a Cash-In row, hot or read back from the archive (client-ledger.ts). */
export function locationOf(db: LedgerDb, profile: Profile | undefined, row: CashInRow) {
  const account = accountAt(db, row.partnerIspb, 'TRANSACTIONAL');
  return {
    cashIn: cashInView(row),
    amountCents: row.amount,
    requestedAtMs: row.requestedAt,
    expiresAtMs: row.expiresAt,
    accountNumber: account?.number ?? row.partnerIspb,
    merchantName: profile?.name ?? '',
    flow: row.flow,
    redirectUrl: row.redirectUrl,
  };
}
