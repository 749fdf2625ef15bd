/**
 * POST /account/rebalance/top-up and /sweep (docs/contract.md, Rebalance): money between the two
 * accounts a client holds at one partner, one operation in either direction.
 */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import { centsFromAmount, MAX_AMOUNT } from '../../domain/money';
import type { RebalanceDirection } from '../../domain/wallet';
import { ProblemError } from '../../http/errors';
import { requestFingerprint } from '../../http/idempotency';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { example, type Out } from '../../openapi/examples';
import type { OperationSpec } from '../../openapi/operation';
import { AMOUNT_MAX_MESSAGE, amountDecimals, IspbSchema } from '../../schemas/common';
import { AccountType, BrtTimestamp, Ispb, Money } from '../../schemas/fields';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { AccountNumber } from './schemas';
import { TAG } from './shared';

/**
 * A rebalance amount: any JSON number with at most 2 decimal places. Zero and negative amounts
 * pass validation on purpose: they are the business rule 422 INVALID_AMOUNT (docs/contract.md, Rebalance),
 * checked after the DigitalSignature.
 */
const RebalanceAmountSchema = v.pipe(
  v.number('amount must be a number'),
  v.maxValue(MAX_AMOUNT, AMOUNT_MAX_MESSAGE),
  // Past -MAX_AMOUNT only the sign matters: 422 INVALID_AMOUNT, not a decimals complaint.
  amountDecimals((n) => n >= -MAX_AMOUNT),
);

/** POST /account/rebalance/top-up and /sweep body. */
const RebalanceSchema = named(
  'Rebalance',
  v.strictObject({
    amount: RebalanceAmountSchema,
    ispb: v.optional(IspbSchema),
  }),
  {
    amount:
      'BRL with at most 2 decimal places; must be greater than zero (422 INVALID_AMOUNT after the signature check).',
    ispb: "Settlement partner whose two accounts are used; default: the client's first partner.",
  },
);

const AccountRef = v.object({ number: AccountNumber, type: AccountType });

export const RebalanceResult = named(
  'RebalanceResult',
  v.object({
    rebalanceId: v.pipe(v.string(), v.examples(['RB0F1E2D3C4B5A69788796A5B4C3D2E1F0'])),
    direction: v.picklist(['TOP_UP', 'SWEEP']),
    amount: Money,
    ispb: Ispb,
    from: AccountRef,
    to: AccountRef,
    status: v.literal('COMPLETED'),
    createdAt: BrtTimestamp,
  }),
);

export type RebalanceBody = v.InferOutput<typeof RebalanceResult>;

const rebalanceExample: Out<typeof RebalanceResult> = {
  rebalanceId: 'RB0F1E2D3C4B5A69788796A5B4C3D2E1F0',
  direction: 'TOP_UP',
  amount: 1000,
  ispb: '31880826',
  from: { number: '10000002-3', type: 'PROPRIETARY' },
  to: { number: '10000001-5', type: 'TRANSACTIONAL' },
  status: 'COMPLETED',
  createdAt: '2026-11-21T12:05:00.000-03:00',
};

const rebalanceOperation = (direction: 'top-up' | 'sweep') =>
  ({
    method: 'post',
    path: `/account/rebalance/${direction}`,
    operationId: direction === 'top-up' ? 'topUp' : 'sweep',
    summary:
      direction === 'top-up' ? 'Top up: PROPRIETARY → TRANSACTIONAL' : 'Sweep: TRANSACTIONAL → PROPRIETARY',
    description:
      `Moves money between the two accounts the client holds at one settlement ` +
      `partner (\`ispb\`, default the client's first partner). Both legs appear in the statement as ` +
      `TRANSFER_OUT / TRANSFER_IN. \`amount\` ≤ 0 answers 422 INVALID_AMOUNT after the DigitalSignature ` +
      `check; not enough available money in the source account answers ` +
      `422 ${direction === 'top-up' ? 'INSUFFICIENT_PROPRIETARY_FUNDS' : 'INSUFFICIENT_TRANSACTIONAL_FUNDS'}.`,
    tag: TAG,
    auth: 'signed',
    idempotent: true,
    body: {
      schema: RebalanceSchema,
      examples: { amount: example('R$ 1.000,00 at the first partner', { amount: 1000 }) },
    },
    success: {
      '201': {
        description: 'Done: both legs posted.',
        schema: RebalanceResult,
        examples: {
          done: example(
            'Completed',
            direction === 'top-up'
              ? rebalanceExample
              : {
                  ...rebalanceExample,
                  direction: 'SWEEP',
                  from: rebalanceExample.to,
                  to: rebalanceExample.from,
                },
          ),
        },
      },
    },
    errors: [
      'VALIDATION_ERROR',
      'INVALID_AMOUNT',
      direction === 'top-up' ? 'INSUFFICIENT_PROPRIETARY_FUNDS' : 'INSUFFICIENT_TRANSACTIONAL_FUNDS',
    ],
  }) satisfies OperationSpec;

async function handleRebalance(
  {
    env,
    principal,
    idempotencyKey,
    raw,
    body,
  }: Input<{ principal: true; idempotent: true; body: typeof RebalanceSchema }>,
  direction: RebalanceDirection,
): Promise<Response> {
  // Sign first: a non-positive amount is not validated for decimals (RebalanceAmountSchema).
  if (body.amount <= 0) throw new ProblemError('INVALID_AMOUNT', 'amount must be greater than zero');
  const amountCents = centsFromAmount(body.amount) as number;
  const result = await ledgerOf(env, principal.clientId).rebalance({
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    requestHash: await requestFingerprint(`POST /account/rebalance ${direction}`, '', raw),
    direction,
    amountCents,
    ...(body.ispb !== undefined && { ispb: body.ispb }),
  });
  return operationResponse(result);
}

export const topUp = route(rebalanceOperation('top-up'), (input) => handleRebalance(input, 'TOP_UP'));

export const sweep = route(rebalanceOperation('sweep'), (input) => handleRebalance(input, 'SWEEP'));
