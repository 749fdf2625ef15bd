/**
 * Response shapes of the account endpoints: statement and balance (docs/contract.md, Statement
 * and balance), rebalance (docs/contract.md, Rebalance), sandbox deposit (docs/contract.md, Sandbox).
 */
import * as v from 'valibot';
import { STATEMENT_TYPES } from '../../domain/statement';
import { AccountType, BrtTimestamp, Cursor, EndToEndId, Ispb, Money } from '../../openapi/fields';
import { named } from '../../schemas/named';

const AccountNumber = v.pipe(v.string(), v.examples(['12345678-9']));

export const StatementItem = named(
  'StatementItem',
  v.object({
    id: v.pipe(v.string(), v.description('Entry id at the settlement partner; stable over time.')),
    date: v.pipe(
      BrtTimestamp,
      v.description('When the entry hit the account (America/Sao_Paulo, milliseconds).'),
    ),
    direction: v.picklist(['CREDIT', 'DEBIT']),
    type: v.pipe(
      v.picklist(STATEMENT_TYPES),
      v.description('Normalized type; treat an unknown value as OTHER.'),
    ),
    typeRaw: v.optional(v.pipe(v.string(), v.description("The partner's own label, untranslated."))),
    amount: v.pipe(Money, v.description('Always positive; the sign comes from `direction`.')),
    balanceAfter: v.optional(v.pipe(Money, v.description('Account balance right after the entry.'))),
    description: v.optional(v.string()),
    endToEndId: v.optional(v.pipe(EndToEndId, v.description('PIX entries only.'))),
    originalEndToEndId: v.optional(v.pipe(v.string(), v.description('PIX refunds only.'))),
  }),
);

const Bank = v.object({ ispb: Ispb, name: v.nullable(v.string()) });

export const Statement = named(
  'Statement',
  v.object({
    account: v.object({
      number: AccountNumber,
      branch: v.nullable(v.string()),
      type: AccountType,
      bank: Bank,
    }),
    period: v.pipe(
      v.object({ from: BrtTimestamp, to: BrtTimestamp, order: v.picklist(['asc', 'desc']) }),
      v.description('The period actually applied.'),
    ),
    items: v.array(StatementItem),
    nextCursor: v.optional(Cursor),
    previousCursor: v.optional(Cursor),
  }),
);

export const Balance = named(
  'Balance',
  v.object({
    currency: v.literal('BRL'),
    asOf: BrtTimestamp,
    totals: v.object({ transactional: Money, proprietary: Money, total: Money }),
    partners: v.array(
      v.object({
        ispb: Ispb,
        bank: v.string(),
        accounts: v.array(
          v.object({
            number: AccountNumber,
            branch: v.string(),
            type: AccountType,
            balance: v.pipe(Money, v.description('Ledger balance.')),
            available: v.optional(
              v.pipe(
                Money,
                v.description(
                  'Balance minus holds of operations in flight; only on the current balance (no `at`).',
                ),
              ),
            ),
          }),
        ),
      }),
    ),
  }),
);

const AccountRef = v.object({ number: AccountNumber, type: AccountType });

export const Rebalance = named(
  'RebalanceResult',
  v.object({
    rebalanceId: v.pipe(v.string(), v.examples(['RB0F1E2D3C4B5A69788796A5B4C3D2E1F0'])),
    direction: v.picklist(['TOP_UP', 'SWEEP']),
    amount: Money,
    ispb: Ispb,
    from: AccountRef,
    to: AccountRef,
    status: v.literal('COMPLETED'),
    createdAt: BrtTimestamp,
  }),
);

export const Deposit = named(
  'Deposit',
  v.object({
    account: v.object({ number: AccountNumber, type: AccountType, bank: Bank }),
    /** The entry exactly as the statement shows it (TRANSFER_IN). */
    entry: StatementItem,
    balance: Money,
    available: Money,
  }),
);
