/** The charge request of a recurrence's cycle (docs/contract.md, Pix Automático): the API's and the sandbox's. */
import * as v from 'valibot';
import { isCalendarDate } from '../../domain/recurrence';
import { AmountSchema, ExternalReferenceSchema, HttpUrlSchema } from '../../schemas/common';
import { named } from '../../schemas/named';

/** POST /recurrences/{id}/charges body (OpenAPI chargeRecurrence). */
export const ChargeRecurrenceSchema = named(
  'ChargeRecurrence',
  v.strictObject({
    amount: AmountSchema,
    dueDate: v.pipe(
      v.string('dueDate must be a string'),
      v.check(isCalendarDate, 'dueDate must be a calendar date YYYY-MM-DD'),
    ),
    externalReference: ExternalReferenceSchema,
    webhookUrl: v.optional(HttpUrlSchema),
  }),
  {
    amount:
      "Within the recurrence's rules: its fixed amount, or between its minimum and the payer's maximum.",
    dueDate: 'A due date of the recurrence, 10 to 2 days from today (America/Sao_Paulo).',
    externalReference: "The Cash-In's reference, unique among your Cash-Ins (409 otherwise).",
    webhookUrl: "Receives the Cash-In's events; default the recurrence's `webhookUrl`.",
  },
);
