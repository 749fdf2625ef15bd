import * as v from 'valibot';
import { named } from '../../schemas/named';

/** POST /cash-in/{id}/refund body (OpenAPI refundCashIn). */
export const RefundSchema = named(
  'Refund',
  v.strictObject({
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
  }),
  {
    reason: 'Why the money goes back; echoed as the Cash-In `reason` once REFUNDED.',
    description: 'Internal audit note; not sent to the payer.',
  },
);
