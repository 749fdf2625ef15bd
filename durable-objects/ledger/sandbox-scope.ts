/**
 * What the sandbox may act on: a Cash-In, Cash-Out or account of a simulated partner. With a real
 * partner declared in staging, its charges, payouts and accounts answer a sandbox action like
 * nonexistent ones, so a simulated payment can never credit money a real bank never received.
 */
import { failure } from '../../src/domain/result';
import { isSimulatedPartner } from '../../src/partners/config';
import { cashInNotFound, findCashIn } from './cash-in/cash-in-store';

import { findCashOut } from './cash-out/cash-out-store';
import { account } from './ledger/ledger';
import type { LedgerContext } from './ledger-context';
import { accountNotFound } from './reads/statement-queries';

/** False when the Cash-In exists and is a real partner's (absent ones answer not found themselves). */
export function mayTouchCashIn(ledger: LedgerContext, id: string): boolean {
  const row = findCashIn(ledger.db, id);
  return row === undefined || isSimulatedPartner(ledger.env, row.partnerIspb);
}

/** A Cash-Out not yet routed to a partner has nothing to return: its own rules answer. */
export function mayTouchCashOut(ledger: LedgerContext, id: string): boolean {
  const row = findCashOut(ledger.db, id);
  return row?.partnerIspb == null || isSimulatedPartner(ledger.env, row.partnerIspb);
}

export function mayTouchAccount(ledger: LedgerContext, number: string): boolean {
  const row = account(ledger.db, number);
  return row === undefined || isSimulatedPartner(ledger.env, row.ispb);
}

/** As cash-out-ops.ts answers an unknown id. */
export const cashOutNotFound = () =>
  failure({ code: 'CASHOUT_NOT_FOUND', detail: 'No Cash-Out matches this id' });

export type SandboxTarget = 'cash-in' | 'cash-out' | 'account';

/** The not-found answer of a row a sandbox action may not touch, or undefined when it may. */
export function sandboxRefusal(ledger: LedgerContext, target: SandboxTarget, id: string) {
  if (target === 'cash-in') return mayTouchCashIn(ledger, id) ? undefined : cashInNotFound();
  if (target === 'cash-out') return mayTouchCashOut(ledger, id) ? undefined : cashOutNotFound();
  return mayTouchAccount(ledger, id) ? undefined : accountNotFound();
}
