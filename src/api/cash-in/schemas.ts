/** The Cash-In wire shapes that code below the API (the ClientLedger's RPC types) shares with the document. */
import * as v from 'valibot';
import { BrtTimestamp, EndToEndId, Money, TransactionIdentity } from '../../schemas/fields';
import { named } from '../../schemas/named';

export const CashInTransactionId = v.pipe(
  v.string(),
  v.description('Payment-network TxId, alphanumeric (26 to 35 characters).'),
  v.examples(['a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6']),
);

/** POST /cash-in/{id}/refund 202 (OpenAPI refundCashIn; docs/contract.md, Cash-In lifecycle). */
export const RefundAccepted = named(
  'RefundAccepted',
  v.object({
    transactionId: CashInTransactionId,
    ...TransactionIdentity,
    endToEndId: v.pipe(
      EndToEndId,
      v.description(
        'The devolution id the gateway asked under (starts with `D`). On a real partner, once ' +
          "the devolution settles the Cash-In's `endToEndId` becomes its PSP's `rtrId`, the network's id " +
          'for it.',
      ),
    ),
    status: v.literal('PROCESSING'),
    amount: Money,
    requestedAt: BrtTimestamp,
    message: v.string(),
  }),
);

export type RefundAcceptedBody = v.InferOutput<typeof RefundAccepted>;
