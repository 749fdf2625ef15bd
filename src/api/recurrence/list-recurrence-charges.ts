/** GET /recurrences/{id}/charges (docs/contract.md, Pix Automático): each cycle's charge and where it stands. */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { example } from '../../openapi/examples';
import { Money } from '../../schemas/fields';
import { named } from '../../schemas/named';
import { CashInTransactionId } from '../cash-in/schemas';
import { route } from '../route-table';
import { recurrencePathId } from './get-recurrence';
import { RecurringCharge, recurrenceIdParameter, recurringCharge, TAG } from './shared';

/** GET /recurrences/{id}/charges 200. */
const RecurrenceCharges = named(
  'RecurrenceCharges',
  v.object({
    items: v.array(
      v.object({
        transactionId: CashInTransactionId,
        internalCode: v.optional(v.string()),
        externalReference: v.optional(v.string()),
        status: v.optional(
          v.pipe(
            v.picklist(['AWAITING_PAYMENT', 'PAID', 'EXPIRED', 'CANCELLED', 'REFUNDED']),
            v.description('The Cash-In now; absent once it is archived (GET /cash-in/{id} reads it).'),
          ),
        ),
        amount: v.optional(Money),
        ...RecurringCharge.entries,
      }),
    ),
  }),
);

export type RecurrenceChargesBody = v.InferOutput<typeof RecurrenceCharges>;

async function handleListRecurrenceCharges({
  request,
  env,
  principal,
}: Input<{ principal: true }>): Promise<Response> {
  const id = recurrencePathId(request);
  return operationResponse(await ledgerOf(env, principal.clientId).recurrence({ op: 'charges', id }));
}

export const listRecurrenceCharges = route(
  {
    method: 'get',
    path: '/recurrences/{id}/charges',
    operationId: 'listRecurrenceCharges',
    summary: "List a recurrence's charges",
    description:
      "Each cycle's charge, first cycle first: its Cash-In's status now and the payer bank's attempts.",
    tag: TAG,
    auth: 'client',
    parameters: [recurrenceIdParameter],
    success: {
      '200': {
        description: 'The charges.',
        schema: RecurrenceCharges,
        examples: {
          charges: example('One paid after a failed attempt', {
            items: [
              {
                transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
                internalCode: 'K7Q2M9X',
                externalReference: 'assinatura-42-2027-02',
                status: 'PAID',
                amount: 29.9,
                ...recurringCharge,
                failedAttempts: 1,
                attemptsLeft: 4,
              },
            ],
          }),
        },
      },
    },
    errors: ['RECURRENCE_NOT_FOUND'],
  },
  handleListRecurrenceCharges,
);
