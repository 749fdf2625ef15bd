/**
 * Wallet (docs/contract.md, Statement and balance, Rebalance): the consolidated balance body and the two
 * rebalance directions between a partner's PROPRIETARY and TRANSACTIONAL accounts. Amounts are centavos until
 * the body is built.
 */
import type { AccountType } from './accounts';
import { amountFromCents } from './money';
import { formatBrt } from './time';

export interface AccountBalance {
  number: string;
  branch: string;
  type: AccountType;
  ispb: string;
  bank: string;
  /** Ledger balance: the last entry's balanceAfter (0 before the first entry). */
  balance: number;
  /** balance − holds of operations in flight; only for the current balance (holds have no history). */
  available?: number;
  /** Centavos open disputes hold (only with `available`). */
  blocked?: number;
}

const TYPE_ORDER: Record<AccountType, number> = { TRANSACTIONAL: 0, PROPRIETARY: 1 };

/**
 * `{currency, asOf, totals: {transactional, proprietary, total}, partners: [{ispb, bank,
 * accounts}]}`. Partners keep the order they were given in (the client's partner order); inside a
 * partner the TRANSACTIONAL account comes first. Totals are sums of ledger balances.
 */
export function balanceBody(asOf: number, accounts: readonly AccountBalance[]) {
  const partners = new Map<string, { ispb: string; bank: string; accounts: AccountBalance[] }>();
  let transactional = 0;
  let proprietary = 0;
  for (const account of accounts) {
    if (account.type === 'TRANSACTIONAL') transactional += account.balance;
    else proprietary += account.balance;
    const partner = partners.get(account.ispb) ?? { ispb: account.ispb, bank: account.bank, accounts: [] };
    partner.accounts.push(account);
    partners.set(account.ispb, partner);
  }
  return {
    currency: 'BRL',
    asOf: formatBrt(asOf),
    totals: {
      transactional: amountFromCents(transactional),
      proprietary: amountFromCents(proprietary),
      total: amountFromCents(transactional + proprietary),
    },
    partners: [...partners.values()].map((p) => ({
      ispb: p.ispb,
      bank: p.bank,
      accounts: [...p.accounts]
        .sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type])
        .map((a) => ({
          number: a.number,
          branch: a.branch,
          type: a.type,
          balance: amountFromCents(a.balance),
          ...(a.available !== undefined && { available: amountFromCents(a.available) }),
          ...(a.blocked !== undefined && { blocked: amountFromCents(a.blocked) }),
        })),
    })),
  };
}

export type RebalanceDirection = 'TOP_UP' | 'SWEEP';

export interface RebalancePlan {
  from: AccountType;
  to: AccountType;
  insufficient: 'INSUFFICIENT_PROPRIETARY_FUNDS' | 'INSUFFICIENT_TRANSACTIONAL_FUNDS';
}

/** Top-up: PROPRIETARY → TRANSACTIONAL; sweep: TRANSACTIONAL → PROPRIETARY (docs/contract.md, Rebalance). */
export const REBALANCE: Record<RebalanceDirection, RebalancePlan> = {
  TOP_UP: { from: 'PROPRIETARY', to: 'TRANSACTIONAL', insufficient: 'INSUFFICIENT_PROPRIETARY_FUNDS' },
  SWEEP: { from: 'TRANSACTIONAL', to: 'PROPRIETARY', insufficient: 'INSUFFICIENT_TRANSACTIONAL_FUNDS' },
};

export interface Rebalance {
  rebalanceId: string;
  direction: RebalanceDirection;
  amount: number;
  ispb: string;
  from: { number: string; type: AccountType };
  to: { number: string; type: AccountType };
  status: 'COMPLETED';
  createdAt: string;
}

/** `RB` + 32 uppercase hex characters. */
export function newRebalanceId(): string {
  return `RB${crypto.randomUUID().replace(/-/g, '').toUpperCase()}`;
}
