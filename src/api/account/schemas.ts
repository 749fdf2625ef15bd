/** Wallet bodies (docs/contract.md, Rebalance). */
import * as v from 'valibot';
import { MAX_AMOUNT } from '../../domain/money';
import { AMOUNT_MAX_MESSAGE, amountDecimals } from '../../schemas/common';
import { named } from '../../schemas/named';

/**
 * A rebalance amount: any JSON number with at most 2 decimal places. Zero and negative amounts
 * pass validation on purpose: they are the business rule 422 INVALID_AMOUNT (docs/contract.md, Rebalance),
 * checked after the DigitalSignature.
 */
export const RebalanceAmountSchema = v.pipe(
  v.number('amount must be a number'),
  v.maxValue(MAX_AMOUNT, AMOUNT_MAX_MESSAGE),
  // Past -MAX_AMOUNT only the sign matters: 422 INVALID_AMOUNT, not a decimals complaint.
  amountDecimals((n) => n >= -MAX_AMOUNT),
);

/** POST /account/rebalance/top-up and /sweep body. */
export const RebalanceSchema = named(
  'Rebalance',
  v.strictObject({
    amount: RebalanceAmountSchema,
    ispb: v.optional(
      v.pipe(v.string('ispb must be a string'), v.regex(/^\d{8}$/, 'ispb must have 8 digits')),
    ),
  }),
  {
    amount:
      'BRL with at most 2 decimal places; must be greater than zero (422 INVALID_AMOUNT after the signature check).',
    ispb: "Settlement partner whose two accounts are used; default: the client's first partner.",
  },
);

export type RebalanceBody = v.InferOutput<typeof RebalanceSchema>;
