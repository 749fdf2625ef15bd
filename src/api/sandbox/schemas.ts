/** Sandbox bodies (docs/contract.md, Sandbox). */
import * as v from 'valibot';
import { AmountSchema, DocumentSchema, IspbSchema } from '../../schemas/common';
import { named } from '../../schemas/named';

export const SandboxPaySchema = named(
  'SandboxPay',
  v.strictObject({
    payer: v.optional(
      v.strictObject({
        name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(140))),
        document: v.optional(DocumentSchema),
        bankData: v.optional(
          v.strictObject({
            ispb: v.optional(IspbSchema),
            branch: v.optional(v.pipe(v.string(), v.regex(/^\d{1,10}$/, 'branch must be digits'))),
            account: v.optional(
              v.pipe(
                v.string(),
                v.regex(/^[0-9A-Za-z-]{1,32}$/, 'account must be letters, digits or hyphen'),
              ),
            ),
          }),
        ),
      }),
    ),
    /** Simulates a partner that confirms the payment before it knows the endToEndId. */
    deferEndToEndId: v.optional(v.boolean()),
  }),
  {
    payer:
      "The account that pays (the Cash-In's `paidBy`); every field has a default: name and document the declared payer's.",
    deferEndToEndId:
      'Simulates a partner that confirms the payment before it knows the endToEndId (refunds then answer 422 MISSING_E2E for a moment).',
  },
);

export const SandboxCashInReturnSchema = named(
  'SandboxCashInReturn',
  v.strictObject({
    reason: v.picklist(
      ['FRAUD', 'CUSTOMER_REQUEST', 'OTHER'],
      'reason must be FRAUD, CUSTOMER_REQUEST or OTHER',
    ),
  }),
);

export const SandboxDisputeSchema = named(
  'SandboxDispute',
  v.strictObject({ amount: v.optional(AmountSchema) }),
  { amount: 'What the partner blocks; the whole unreturned amount when absent.' },
);

export const SandboxDisputeCloseSchema = named(
  'SandboxDisputeClose',
  v.strictObject({
    outcome: v.picklist(
      ['ACCEPTED', 'REJECTED', 'CANCELLED'],
      'outcome must be ACCEPTED, REJECTED or CANCELLED',
    ),
  }),
  { outcome: "The payer bank's decision; ACCEPTED also returns `blockedAmount` to the payer." },
);

export const SandboxCashOutReturnSchema = named(
  'SandboxCashOutReturn',
  v.strictObject({
    reason: v.picklist(
      ['PAYEE_REQUESTED', 'FRAUD', 'OPERATIONAL_ERROR', 'REVERSED_BY_INSTITUTION', 'OTHER'],
      'reason must be one of the Cash-Out return reasons',
    ),
  }),
);

/**
 * A sandbox deposit: the one amount cap (docs/contract.md, Amounts and documents), like every amount a client
 * sends.
 */
export const SandboxDepositSchema = named(
  'SandboxDeposit',
  v.strictObject({
    amount: AmountSchema,
  }),
);
