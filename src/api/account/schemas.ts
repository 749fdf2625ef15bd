/** Wallet bodies (docs/contract.md, Rebalance). */
import * as v from 'valibot';
import { MAX_AMOUNT } from '../../domain/money';
import { AMOUNT_MAX_MESSAGE, amountDecimals, IspbSchema } from '../../schemas/common';

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
export const RebalanceSchema = v.strictObject({
  amount: RebalanceAmountSchema,
  ispb: v.optional(IspbSchema),
});

export type RebalanceBody = v.InferOutput<typeof RebalanceSchema>;
