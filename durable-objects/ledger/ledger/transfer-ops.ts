import type { DepositBody } from '../../../src/api/account/schemas';
import { amountFromCents } from '../../../src/domain/money';
import { failure, type OperationResult, success } from '../../../src/domain/result';
import { statementItem } from '../../../src/domain/statement';
import { formatBrt } from '../../../src/domain/time';
import {
  newRebalanceId,
  REBALANCE,
  type Rebalance,
  type RebalanceDirection,
} from '../../../src/domain/wallet';
import type { LedgerContext } from '../ledger-context';
import { accountNotFound, accountView } from '../reads/statement-queries';
import type { Remember } from './idempotency';
import { account, accountAt, available, entryById, firstPartnerIspb, postEntry } from './ledger';

export interface RebalanceInput {
  direction: RebalanceDirection;
  /** Centavos, already known to be > 0 (the route answers INVALID_AMOUNT otherwise). */
  amountCents: number;
  ispb?: string;
}

/** The client's first partner: the one its first account was opened at. */
function firstPartner(ledger: LedgerContext): string | undefined {
  return firstPartnerIspb(ledger.db);
}

export function rebalance(
  ledger: LedgerContext,
  input: RebalanceInput,
  remember: Remember,
): OperationResult<Rebalance> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
    return failure({ code: 'INVALID_AMOUNT', detail: 'amount must be greater than zero' });
  }
  const ispb = input.ispb ?? firstPartner(ledger);
  const plan = REBALANCE[input.direction];
  const source = ispb === undefined ? undefined : accountAt(ledger.db, ispb, plan.from);
  const target = ispb === undefined ? undefined : accountAt(ledger.db, ispb, plan.to);
  if (ispb === undefined || !source || !target) {
    return failure({
      code: 'VALIDATION_ERROR',
      detail: 'ispb is not one of the client settlement partners',
      errors: { ispb: ['ispb must be one of the client settlement partners'] },
    });
  }
  const now = Date.now();
  const rebalanceId = newRebalanceId();
  const body: Rebalance = {
    rebalanceId,
    direction: input.direction,
    amount: amountFromCents(input.amountCents),
    ispb,
    from: { number: source.number, type: source.type },
    to: { number: target.number, type: target.type },
    status: 'COMPLETED',
    createdAt: formatBrt(now),
  };
  const label = input.direction === 'TOP_UP' ? 'Top-up' : 'Sweep';
  return ledger.storage.transactionSync(() => {
    // Checked inside the transaction: nothing else can move these accounts between check and post.
    if (available(ledger.db, source.number) < input.amountCents) {
      return failure({
        code: plan.insufficient,
        detail: `The ${plan.from} account at ${ispb} does not have ${body.amount.toFixed(2)} available`,
      });
    }
    postEntry(ledger.db, {
      accountNumber: source.number,
      type: 'TRANSFER_OUT',
      amount: input.amountCents,
      ref: `rebalance:${rebalanceId}`,
      at: now,
      description: `${label} ${rebalanceId} para ${target.number}`,
    });
    postEntry(ledger.db, {
      accountNumber: target.number,
      type: 'TRANSFER_IN',
      amount: input.amountCents,
      ref: `rebalance:${rebalanceId}`,
      at: now,
      description: `${label} ${rebalanceId} de ${source.number}`,
    });
    remember(201, body);
    return success(201, body);
  });
}

/** The deposit's 201 body, as the API documents it. */
export type Deposit = DepositBody;

/** Sandbox: a transfer from outside lands on one of the client's accounts (TRANSFER_IN). */
export function deposit(
  ledger: LedgerContext,
  number: string,
  amountCents: number,
): OperationResult<Deposit> {
  const row = account(ledger.db, number);
  if (!row) return accountNotFound();
  const now = Date.now();
  return ledger.storage.transactionSync(() => {
    const posted = postEntry(ledger.db, {
      accountNumber: row.number,
      type: 'TRANSFER_IN',
      amount: amountCents,
      ref: `deposit:${crypto.randomUUID()}`,
      at: now,
      description: 'Deposito sandbox',
    });
    const entry = entryById(ledger.db, posted.id);
    if (!entry) throw new Error('posted entry vanished');
    const view = accountView(ledger.env, row);
    return success(201, {
      account: { number: view.number, type: view.type, bank: view.bank },
      entry: statementItem({ ...entry, direction: entry.direction as 'CREDIT' | 'DEBIT' }),
      balance: amountFromCents(posted.balanceAfter),
      available: amountFromCents(available(ledger.db, row.number)),
    });
  });
}
