/**
 * Sandbox operations of Pix Automático (docs/contract.md, Pix Automático): the payer's bank answering
 * or ending a recurrence, staging only, on the sandbox partner's recurrences.
 */
import * as v from 'valibot';
import { isCalendarDate } from '../../domain/recurrence';
import { example } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { cashInIdParameter } from '../../openapi/parameters';
import { AmountSchema } from '../../schemas/common';
import { named } from '../../schemas/named';
import { cashInAwaiting } from '../cash-in/shared';
import { ChargeRecurrenceSchema } from '../recurrence/schemas';
import {
  chargedResponse,
  Recurrence,
  RecurringCashIn,
  recurrenceApproved,
  recurrenceCancelled,
  recurrenceIdParameter,
  recurrenceWaiting,
  recurringCashInFailedOnce,
  recurringCharge,
} from '../recurrence/shared';

export const SandboxApproveRecurrenceSchema = named(
  'SandboxApproveRecurrence',
  v.strictObject({ payerMaximumAmount: v.optional(AmountSchema) }),
  { payerMaximumAmount: 'Variable-amount recurrences only: the most the payer allows per charge.' },
);

const answer = (
  verb: 'approve' | 'reject' | 'cancel',
  summary: string,
  description: string,
  status: string,
  value: unknown,
): Omit<OperationSpec, 'tag' | 'auth' | 'stagingOnly'> => ({
  method: 'post',
  path: `/sandbox/recurrences/{id}/${verb}`,
  operationId: `sandbox${verb.charAt(0).toUpperCase()}${verb.slice(1)}Recurrence`,
  summary,
  description,
  parameters: [recurrenceIdParameter],
  ...(verb === 'approve' && {
    body: {
      schema: SandboxApproveRecurrenceSchema,
      required: false,
      examples: { plain: example('As the payer authorized it', {}) },
    },
  }),
  success: {
    '200': {
      description: `The recurrence as GET returns it, ${status}.`,
      schema: Recurrence,
      examples: { moved: example(status, value) },
    },
  },
  errors: [
    ...(verb === 'approve' ? (['VALIDATION_ERROR'] as const) : []),
    'RECURRENCE_NOT_FOUND',
    'RULE_VIOLATION',
  ],
});

export const sandboxRecurrenceSpecs = [
  answer(
    'approve',
    "The payer's bank approves a recurrence",
    'From WAITING_AUTHORIZATION: APPROVED and `RECURRENCE_APPROVED` sent; else 422 RULE_VIOLATION.',
    'APPROVED',
    recurrenceApproved,
  ),
  answer(
    'reject',
    "The payer's bank rejects a recurrence",
    'From WAITING_AUTHORIZATION: REJECTED and `RECURRENCE_REJECTED` sent; else 422 RULE_VIOLATION.',
    'REJECTED',
    {
      ...recurrenceWaiting,
      status: 'REJECTED',
      authorization: { journey: 'QR' },
      rejectedAt: '2027-01-20T10:20:00.000-03:00',
    },
  ),
  answer(
    'cancel',
    'The payer cancels a recurrence in their bank',
    'From WAITING_AUTHORIZATION or APPROVED: CANCELLED with `cancelledBy` PAYER and `RECURRENCE_CANCELLED` sent; else 422 RULE_VIOLATION.',
    'CANCELLED',
    recurrenceCancelled,
  ),
];

const onCharge = (
  verb: 'fail-attempt' | 'payer-cancel',
  operationId: string,
  summary: string,
  description: string,
  value: unknown,
): Omit<OperationSpec, 'tag' | 'auth' | 'stagingOnly'> => ({
  method: 'post',
  path: `/sandbox/cash-in/{id}/${verb}`,
  operationId,
  summary,
  description,
  parameters: [cashInIdParameter],
  success: {
    '200': {
      description: 'The Cash-In as GET returns it, with its recurrence.',
      schema: RecurringCashIn,
      examples: { after: example(summary, value) },
    },
  },
  errors: ['CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
});

export const sandboxChargeSpecs = [
  onCharge(
    'fail-attempt',
    'sandboxFailChargeAttempt',
    "The payer's bank fails an attempt of a recurring charge now",
    'A recurring Cash-In AWAITING_PAYMENT only (else 422; any other Cash-In 404): ' +
      '`RECURRING_CHARGE_ATTEMPT_FAILED` sent to the recurrence’s `webhookUrl`; after the last attempt ' +
      'the recurrence allows, EXPIRED and `CASHIN_EXPIRED` sent. Pay an attempt with POST ' +
      '/sandbox/cash-in/{id}/pay.',
    recurringCashInFailedOnce,
  ),
  onCharge(
    'payer-cancel',
    'sandboxPayerCancelCharge',
    'The payer cancels a recurring charge in their bank',
    'Until 23:59:59.999 (America/Sao_Paulo) the day before the due date, else 422: CANCELLED and `CASHIN_CANCELLED` sent.',
    {
      ...cashInAwaiting,
      status: 'CANCELLED',
      cancelledAt: '2027-02-25T10:00:00.000-03:00',
      recurrence: recurringCharge,
    },
  ),
];

/** POST /sandbox/recurrences/{id}/charges body: a charge as of a São Paulo date. */
export const SandboxChargeRecurrenceSchema = named(
  'SandboxChargeRecurrence',
  v.strictObject({
    ...ChargeRecurrenceSchema.entries,
    asOf: v.pipe(
      v.string('asOf must be a string'),
      v.check(isCalendarDate, 'asOf must be a calendar date YYYY-MM-DD'),
    ),
  }),
  {
    amount: 'As in POST /recurrences/{id}/charges.',
    dueDate: 'A due date of the recurrence, 10 to 2 days after `asOf`.',
    externalReference: 'As in POST /recurrences/{id}/charges.',
    webhookUrl: 'As in POST /recurrences/{id}/charges.',
    asOf: 'The day (America/Sao_Paulo) the charge is checked as of: past, today or future.',
  },
);

export const sandboxChargeAsOfSpec: Omit<OperationSpec, 'tag' | 'auth' | 'stagingOnly'> = {
  method: 'post',
  path: '/sandbox/recurrences/{id}/charges',
  operationId: 'sandboxChargeRecurrence',
  summary: "Charge a recurrence's cycle as of a date",
  description:
    "The sandbox's clock for Pix Automático: POST /recurrences/{id}/charges as if today " +
    '(America/Sao_Paulo) were `asOf`, so any cycle is reached without waiting for the calendar. Only the ' +
    '10-to-2-day window is checked as of `asOf`; every other rule is the same, the Cash-In is created now' +
    ' and its last attempt (`expiredAt`) follows from its due date. A recurrence of a real partner ' +
    'answers 404.',
  parameters: [recurrenceIdParameter],
  body: {
    schema: SandboxChargeRecurrenceSchema,
    examples: {
      february: example('February, charged on the 20th', {
        amount: 29.9,
        dueDate: '2027-02-28',
        externalReference: 'assinatura-42-2027-02',
        asOf: '2027-02-20',
      }),
    },
  },
  success: chargedResponse('2026-11-29T10:15:30.123-03:00'),
  errors: ['VALIDATION_ERROR', 'RECURRENCE_NOT_FOUND', 'DUPLICATED_EXTERNAL_REFERENCE', 'RULE_VIOLATION'],
};
