/**
 * The account resource's schemas the ClientLedger answers with (docs/contract.md, Statement and
 * balance): the account fields, the statement entry and the sandbox deposit's body. They live here,
 * below the object's layer, so its RPC type is their `v.InferOutput`, as the Cash-Out's are.
 */
import * as v from 'valibot';
import { STATEMENT_TYPES } from '../../domain/statement';
import { AccountType, BrtTimestamp, EndToEndId, Ispb, Money } from '../../schemas/fields';
import { named } from '../../schemas/named';

export const AccountNumber = v.pipe(v.string(), v.examples(['12345678-9']));

export const Bank = v.object({ ispb: Ispb, name: v.nullable(v.string()) });

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

/** POST /sandbox/accounts/{number}/deposit 201 (docs/contract.md, Sandbox). */
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

export type DepositBody = v.InferOutput<typeof Deposit>;
