/**
 * POST /cash-in/{id}/dispute/defense (docs/contract.md, Disputes): the client's defense of a MED
 * infraction, forwarded to the settlement partner before `respondBy`; once only.
 */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import { ProblemError } from '../../http/errors';
import type { Input } from '../../http/pipeline';
import { operationResponse } from '../../http/respond';
import { pathId } from '../../http/transaction-reads';
import { example } from '../../openapi/examples';
import { cashInIdParameter } from '../../openapi/parameters';
import { named } from '../../schemas/named';
import { route } from '../route-table';
import { CashIn, cashInDisputed, disputeOpen, TAG } from './shared';

const DisputeDefenseSchema = named(
  'DisputeDefense',
  v.strictObject({
    text: v.pipe(
      v.string('text must be a string'),
      v.minLength(1, 'text must have 1 to 2000 characters'),
      v.maxLength(2000, 'text must have 1 to 2000 characters'),
    ),
  }),
  { text: "Why the payment is legitimate, as the payer's bank will read it." },
);

async function handleDefendDispute({
  request,
  env,
  principal,
  body,
}: Input<{ principal: true; body: typeof DisputeDefenseSchema }>): Promise<Response> {
  const id = pathId(request);
  if (id === undefined) throw new ProblemError('CASHIN_NOT_FOUND', 'No Cash-In matches this id');
  return operationResponse(
    await ledgerOf(env, principal.clientId).dispute({ kind: 'defend', id, text: body.text }),
  );
}

export const defendDispute = route(
  {
    method: 'post',
    path: '/cash-in/{id}/dispute/defense',
    operationId: 'defendDispute',
    summary: 'Defend a Cash-In under a MED dispute',
    description:
      "Sends the text to the settlement partner as the defense of the Cash-In's open dispute: " +
      '202 with `dispute.status` DEFENDED and `defendedAt`, and `CASHIN_DISPUTE_UPDATED` is sent. No ' +
      'open dispute, a defense already sent, or after `respondBy`: 422 RULE_VIOLATION, and nothing is ' +
      'sent.',
    tag: TAG,
    auth: 'signed',
    parameters: [cashInIdParameter],
    body: {
      schema: DisputeDefenseSchema,
      examples: {
        defense: example('Defense', { text: 'The bettor deposited from an account in their own name.' }),
      },
    },
    success: {
      '202': {
        description: 'The Cash-In as GET returns it, `dispute.status` DEFENDED.',
        schema: CashIn,
        examples: {
          defended: example('Defended', {
            ...cashInDisputed,
            dispute: {
              ...disputeOpen,
              status: 'DEFENDED',
              defendedAt: '2026-11-22T15:00:00.000-03:00',
            },
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR', 'CASHIN_NOT_FOUND', 'RULE_VIOLATION'],
  },
  handleDefendDispute,
);
