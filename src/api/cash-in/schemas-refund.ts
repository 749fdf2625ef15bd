import * as v from 'valibot';

/** POST /cash-in/{id}/refund body (OpenAPI refundCashIn). */
export const RefundSchema = v.strictObject({
  reason: v.picklist(
    ['FRAUD', 'DUPLICATED_PAYMENT', 'CUSTOMER_REQUEST', 'MERCHANT_ERROR'],
    'reason must be FRAUD, DUPLICATED_PAYMENT, CUSTOMER_REQUEST or MERCHANT_ERROR',
  ),
  description: v.optional(
    v.pipe(
      v.string('description must be a string'),
      v.maxLength(140, 'description must have at most 140 characters'),
    ),
  ),
});
