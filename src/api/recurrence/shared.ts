/** What the recurrence operations share (docs/contract.md, Pix Automático): the view and its examples. */
import * as v from 'valibot';
import type { ChargeRecurrenceInput } from '../../../durable-objects/ledger/recurrence/recurrence-charge-ops';
import { locationHost } from '../../domain/location';
import { centsFromAmount } from '../../domain/money';
import { FREQUENCIES, RETRY_POLICIES } from '../../domain/recurrence';
import { example, type Out } from '../../openapi/examples';
import { parameter } from '../../openapi/parameters';
import { BrtTimestamp, Ispb, Money } from '../../schemas/fields';
import { named } from '../../schemas/named';
import {
  CalendarDate,
  CashIn,
  CashInCreated,
  cashInAwaiting,
  RecurrenceId,
  RecurringCharge,
} from '../cash-in/shared';

export { RecurrenceId, RecurringCharge };

export const TAG = 'Pix Automático';

export const RECURRENCE_STATUSES = [
  'WAITING_AUTHORIZATION',
  'APPROVED',
  'REJECTED',
  'EXPIRED',
  'CANCELLED',
] as const;

/** GET /recurrences/{id} (OpenAPI getRecurrence), and each recurrence event's `data`. */
export const Recurrence = named(
  'Recurrence',
  v.object({
    recurrenceId: RecurrenceId,
    externalReference: v.string(),
    status: v.picklist(RECURRENCE_STATUSES),
    frequency: v.picklist(FREQUENCIES),
    startDate: v.pipe(CalendarDate, v.description('The first due date.')),
    endDate: v.optional(CalendarDate),
    amount: v.optional(v.pipe(Money, v.description('Fixed amount: every charge is exactly this.'))),
    minimumAmount: v.optional(v.pipe(Money, v.description('Variable amount: the least a charge may be.'))),
    payerMaximumAmount: v.optional(
      v.pipe(Money, v.description('Variable amount: the most the payer allowed.')),
    ),
    retryPolicy: v.picklist(RETRY_POLICIES),
    contract: v.string(),
    description: v.optional(v.string()),
    payer: v.object({
      name: v.string(),
      document: v.string(),
      bankData: v.optional(v.object({ ispb: Ispb, branch: v.string(), account: v.string() })),
    }),
    authorization: v.pipe(
      v.object({
        journey: v.picklist(['QR', 'PUSH']),
        copyAndPaste: v.optional(
          v.pipe(
            v.string(),
            v.description('QR journey, while WAITING_AUTHORIZATION: the BR Code the payer reads.'),
          ),
        ),
        qrCodeImageBase64: v.optional(
          v.pipe(v.string(), v.description('PNG, Base64: on creation, when asked.')),
        ),
      }),
      v.description(
        'How the payer authorizes: a BR Code (QR) or a request pushed to the bank in `payer.bankData`.',
      ),
    ),
    nextDueDate: v.optional(
      v.pipe(CalendarDate, v.description('APPROVED: the next cycle due today or later.')),
    ),
    createdAt: BrtTimestamp,
    authorizationExpiresAt: BrtTimestamp,
    approvedAt: v.optional(BrtTimestamp),
    rejectedAt: v.optional(BrtTimestamp),
    expiredAt: v.optional(BrtTimestamp),
    cancelledAt: v.optional(BrtTimestamp),
    cancelledBy: v.optional(v.picklist(['CLIENT', 'PAYER', 'PAYER_BANK'])),
  }),
);

export type RecurrenceBody = v.InferOutput<typeof Recurrence>;

export const recurrenceWaiting: Out<typeof Recurrence> = {
  recurrenceId: 'RR3188082620270120abcDEF12345',
  externalReference: 'assinatura-42',
  status: 'WAITING_AUTHORIZATION',
  frequency: 'MONTHLY',
  startDate: '2027-01-31',
  amount: 29.9,
  retryPolicy: 'THREE_IN_SEVEN_DAYS',
  contract: 'PLANO-MENSAL-42',
  description: 'Assinatura mensal',
  payer: { name: 'Maria da Silva', document: '12345678909' },
  authorization: {
    journey: 'QR',
    copyAndPaste:
      '00020101021226760014br.gov.bcb.pix2554api.connectpsp.com.br/pix/rec/3f9a2c1bK7Q2M9X520400005303986540529.905802BR5920Loja ' +
      'Teste Ltda6009Sao Paulo62070503***6304ABCD',
  },
  createdAt: '2027-01-20T10:15:30.123-03:00',
  authorizationExpiresAt: '2027-01-27T10:15:30.123-03:00',
};

export const recurrenceApproved: Out<typeof Recurrence> = {
  ...recurrenceWaiting,
  status: 'APPROVED',
  authorization: { journey: 'QR' },
  nextDueDate: '2027-01-31',
  approvedAt: '2027-01-20T10:20:00.000-03:00',
};

const { nextDueDate: _, ...approvedWithoutNext } = recurrenceApproved;
export const recurrenceCancelled: Out<typeof Recurrence> = {
  ...approvedWithoutNext,
  status: 'CANCELLED',
  cancelledAt: '2027-04-02T08:00:00.000-03:00',
  cancelledBy: 'PAYER',
};

export const recurrenceExamples = {
  approved: example('Approved', recurrenceApproved),
};

export const recurrenceIdParameter = parameter(
  'id',
  'path',
  v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  'The `recurrenceId`, or your `externalReference`.',
);

export const recurringCharge: Out<typeof RecurringCharge> = {
  recurrenceId: recurrenceWaiting.recurrenceId,
  cycle: 1,
  dueDate: '2027-02-28',
  failedAttempts: 0,
  attemptsLeft: 5,
};

/** A recurring Cash-In: the Cash-In as GET answers it, with its recurrence. */
export const RecurringCashIn = named(
  'RecurringCashIn',
  v.object({ ...CashIn.entries, recurrence: RecurringCharge }),
);

export const recurringCashInFailedOnce: Out<typeof RecurringCashIn> = {
  ...cashInAwaiting,
  recurrence: { ...recurringCharge, failedAttempts: 1, attemptsLeft: 4 },
};

/** POST /recurrences/{id}/charges 201: the created Cash-In with its recurrence. */
export const RecurringCashInCreated = named(
  'RecurringCashInCreated',
  v.object({ ...CashInCreated.entries, recurrence: RecurringCharge }),
);

export type RecurringCashInCreatedBody = v.InferOutput<typeof RecurringCashInCreated>;

/** The 201 of a cycle's charge created at `requestedAt`: the client's route and the sandbox clock's. */
export function chargedResponse(requestedAt: string) {
  return {
    '201': {
      description: 'Created: the Cash-In, AWAITING_PAYMENT, with its recurrence.',
      schema: RecurringCashInCreated,
      examples: {
        created: example('Charged', {
          transactionId: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6',
          internalCode: 'K7Q2M9X',
          externalReference: 'assinatura-42-2027-02',
          status: 'AWAITING_PAYMENT',
          amount: 29.9,
          payer: { name: 'Maria da Silva', document: '12345678909' },
          requestedAt,
          recurrence: recurringCharge,
        }),
      },
    },
  };
}

/**
 * What the ledger charges for a cycle, from a valid charge body: the Cash-In's locations are the
 * gateway's, under the client's location key (the same as POST /cash-in's).
 */
export function chargeLedgerInput(
  id: string,
  body: { amount: number; dueDate: string; externalReference: string; webhookUrl?: string },
  requestUrl: string,
  pixLocationHost: string,
  locationKey: string,
): ChargeRecurrenceInput {
  const url = new URL(requestUrl);
  const host = locationHost(pixLocationHost, url);
  return {
    id,
    amountCents: centsFromAmount(body.amount) as number,
    dueDate: body.dueDate,
    externalReference: body.externalReference,
    ...(body.webhookUrl !== undefined && { webhookUrl: body.webhookUrl }),
    locationPrefix: `${host}/pix/qr/${locationKey}`,
    paymentUrlPrefix: `${url.protocol}//${host}/open-finance/${locationKey}`,
    locationKey,
  };
}
