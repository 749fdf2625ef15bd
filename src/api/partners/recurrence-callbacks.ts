/**
 * A real partner's Pix Automático callbacks (bacen/pix-api 2.9.0: `PUT /webhookrec` posts to
 * `{webhookUrl}/rec`, `PUT /webhookcobr` to `{webhookUrl}/cobr`), on the same authenticated paths as
 * its Pix callbacks (callback-auth.ts). The body is a hint only: each recurrence (`idRec`) and each
 * charge (`txid`) named is read again from the partner (`GET /rec/{idRec}`, `GET /cobr/{txid}`), and
 * only that answer moves anything, once: the payer's answer or cancellation, a failed attempt, the
 * final outcome; a paid charge is booked from the Pix that paid it, read again like any Pix
 * (src/cron/partner-notices.ts). A forged or replayed callback moves nothing.
 */
import * as v from 'valibot';
import { ledgerOf } from '../../../durable-objects/stubs';
import { applyPixHints } from '../../cron/partner-notices';
import { clientOfTxId } from '../../db/client-keys';
import { clientOfPartnerRecurrence } from '../../db/partner-recurrences';
import type { OperationResult } from '../../domain/result';
import { readJsonObject } from '../../http/body';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { ApiRequest, RequestContext } from '../../http/request-context';
import { parseWith } from '../../http/validation';
import { example } from '../../openapi/examples';
import { inlineSchema } from '../../openapi/json-schema';
import type { OperationSpec } from '../../openapi/operation';
import { ispbParameter, parameter } from '../../openapi/parameters';
import type { BcbApiPixPartner } from '../../partners/bcb-api-pix/adapter';
import { named } from '../../schemas/named';
import { selfAuthenticatingRoute } from '../route-table';
import { authenticatedPartner } from './callback-auth';

/** Partner reads one callback may cause; the rest are answered `deferred` (the PSP sends them again). */
const MAX_READS_PER_CALLBACK = 50;
const MAX_ITEMS = 500;

const RecCallbackSchema = named(
  'PartnerRecCallback',
  v.object({
    recs: v.pipe(
      v.array(
        v.looseObject({
          idRec: v.pipe(
            v.string('idRec must be a string'),
            v.regex(/^[a-zA-Z0-9]{29}$/, 'idRec must be 29 letters or digits'),
          ),
          status: v.optional(v.unknown()),
          atualizacao: v.optional(v.unknown()),
        }),
        'recs must be an array of recurrences',
      ),
      v.maxLength(MAX_ITEMS, `recs must have at most ${MAX_ITEMS} items`),
    ),
  }),
);

const CobrCallbackSchema = named(
  'PartnerCobrCallback',
  v.object({
    cobsr: v.pipe(
      v.array(
        v.looseObject({
          txid: v.pipe(
            v.string('txid must be a string'),
            v.regex(/^[a-zA-Z0-9]{26,35}$/, 'txid must be 26 to 35 letters or digits'),
          ),
          idRec: v.optional(v.unknown()),
          status: v.optional(v.unknown()),
          tentativas: v.optional(v.unknown()),
        }),
        'cobsr must be an array of recurring charges',
      ),
      v.maxLength(MAX_ITEMS, `cobsr must have at most ${MAX_ITEMS} items`),
    ),
  }),
);

const OUTCOMES = [
  'recorded',
  'already-recorded',
  'waiting',
  'unmatched',
  'conflict',
  'not-confirmed',
  'unavailable',
  'deferred',
  'paid',
  'already-paid',
] as const;
type Outcome = (typeof OUTCOMES)[number];
type Applied = OperationResult<{ outcome: Outcome }>;

const outcomes = v.pipe(
  v.array(v.picklist(OUTCOMES)),
  v.description(
    'What the partner confirmed and what was done: `recorded` (the change is ours now, its event ' +
      'sent), `already-recorded` (a redelivery), `waiting` (nothing new: still waiting for the payer or ' +
      'the bank), `unmatched` (no recurrence or charge of ours), `conflict` (our state moved first; ' +
      'logged for an operator), `not-confirmed` (the partner does not know it: nothing moved), ' +
      '`unavailable` (the partner could not be asked: 503, sent again), `deferred` (beyond the first 50 ' +
      "of one callback), and for the Pix that paid a charge the Pix callback's `paid`/`already-paid`.",
  ),
);

const RecResult = inlineSchema(v.object({ recs: v.array(v.object({ idRec: v.string(), outcomes })) }));
const CobrResult = inlineSchema(v.object({ cobsr: v.array(v.object({ txid: v.string(), outcomes })) }));

function unavailableRetry(items: { outcomes: Outcome[] }[]): void {
  if (items.some((i) => i.outcomes.includes('unavailable')))
    throw new ProblemError(
      'SERVICE_UNAVAILABLE',
      'The partner could not confirm every item now; retry later',
      {
        headers: { 'retry-after': '60' },
      },
    );
}

async function recFact(env: Env, partner: BcbApiPixPartner, idRec: string): Promise<Outcome[]> {
  const read = await partner.recurrences?.recurrence(idRec);
  if (!read || (!read.ok && !read.retryable)) return ['not-confirmed'];
  if (!read.ok) return ['unavailable'];
  const clientId = await clientOfPartnerRecurrence(env, partner.ispb, idRec);
  if (!clientId) return ['unmatched'];
  const applied = (await ledgerOf(env, clientId).recurrence({
    op: 'partner-rec',
    fact: read.value,
  })) as Applied;
  return [applied.ok ? applied.body.outcome : 'conflict'];
}

async function cobrFact(env: Env, partner: BcbApiPixPartner, txid: string): Promise<Outcome[]> {
  const read = await partner.recurrences?.recurringCharge(txid);
  if (!read || (!read.ok && !read.retryable)) return ['not-confirmed'];
  if (!read.ok) return ['unavailable'];
  const clientId = await clientOfTxId(env, txid);
  if (!clientId) return ['unmatched'];
  // Paid: the money is the Pix that paid it, booked as every Pix is, once by its end-to-end id.
  const paid = await applyPixHints(env, partner, read.value.paidBy);
  const pixOutcomes = Object.values(paid).flat() as string[];
  if (pixOutcomes.includes('unavailable')) return ['unavailable'];
  const applied = (await ledgerOf(env, clientId).recurrence({
    op: 'partner-cobr',
    fact: read.value,
  })) as Applied;
  const outcome = applied.ok ? applied.body.outcome : 'conflict';
  return [...(pixOutcomes.filter((o) => o === 'paid' || o === 'already-paid') as Outcome[]), outcome];
}

async function handleRecCallback(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const partner = authenticatedPartner(request, env);
  const body = parseWith(RecCallbackSchema, await readJsonObject(request));
  const ids = [...new Set(body.recs.map((r) => r.idRec))];
  const recs = [];
  for (const [i, idRec] of ids.entries())
    recs.push({
      idRec,
      outcomes: i < MAX_READS_PER_CALLBACK ? await recFact(env, partner, idRec) : ['deferred' as const],
    });
  unavailableRetry(recs);
  return json({ recs });
}

async function handleCobrCallback(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const partner = authenticatedPartner(request, env);
  const body = parseWith(CobrCallbackSchema, await readJsonObject(request));
  const txids = [...new Set(body.cobsr.map((c) => c.txid))];
  const cobsr = [];
  for (const [i, txid] of txids.entries())
    cobsr.push({
      txid,
      outcomes: i < MAX_READS_PER_CALLBACK ? await cobrFact(env, partner, txid) : ['deferred' as const],
    });
  unavailableRetry(cobsr);
  return json({ cobsr });
}

const secretParameter = parameter(
  'secret',
  'path',
  v.string(),
  "The partner's webhook secret (PARTNER_<ISPB>_WEBHOOK_SECRET).",
);

const AUTH = {
  partner:
    "Authentication: the partner's client certificate (mTLS at the edge; the partner's `webhookCertSubject`, and `webhookCertIssuer` when set, must match).",
  partnerSecret:
    "Authentication: the partner's secret `PARTNER_<ISPB>_WEBHOOK_SECRET` as the `secret` path segment, for partners that cannot present a client certificate.",
};

function callback(
  kind: 'rec' | 'cobr',
  auth: 'partner' | 'partnerSecret',
  body: OperationSpec['body'],
  result: OperationSpec['success'],
): OperationSpec {
  const secret = auth === 'partnerSecret';
  const what = kind === 'rec' ? 'recurrence' : 'recurring charge';
  return {
    method: 'post',
    tag: 'Settlement partners',
    path: `/partners/{ispb}/webhook${secret ? '/{secret}' : ''}/${kind}`,
    operationId: `partner${kind === 'rec' ? 'Rec' : 'Cobr'}Callback${secret ? 'SecretPath' : ''}`,
    summary: `Pix Automático ${what} callback from a partner (${secret ? 'secret path' : 'mTLS'})`,
    auth,
    parameters: secret ? [ispbParameter, secretParameter] : [ispbParameter],
    description:
      `A real partner's API Pix \`webhook${kind}\` callback (bacen/pix-api 2.9.0 ` +
      `\`{webhookUrl}/${kind}\`), registered with its Pix webhook (PUT /admin/partners/{ispb}/webhook). ` +
      `The body is a **hint** only: each ${what} named is read again from the partner and only its ` +
      `answer is recorded, once, so a forged or replayed callback moves nothing. 404 \`NOT_FOUND\` for ` +
      `an ISPB that is not a declared \`bcb-api-pix\` partner; 401 \`UNAUTHORIZED\` when it does not ` +
      `authenticate; 503 \`SERVICE_UNAVAILABLE\` (\`Retry-After\`) when the partner could not be asked ` +
      `about some of them (the others are applied), so the PSP sends it again.\n\n${AUTH[auth]}`,
    body,
    success: result,
    errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  };
}

const recBody = {
  schema: RecCallbackSchema,
  examples: {
    approved: example('A recurrence approved', {
      recs: [{ idRec: 'RR0908935620270120abcdefghijk', status: 'APROVADA' }],
    }),
  },
};
const recResult = {
  '200': { description: 'Every recurrence named was read again and applied.', schema: RecResult },
};
const cobrBody = {
  schema: CobrCallbackSchema,
  examples: {
    attempt: example('An attempt failed', {
      cobsr: [
        {
          txid: 'K3b9Qe2LmN8pR4sT6uV1wXyZa0cDfGhJk',
          idRec: 'RR0908935620270120abcdefghijk',
          status: 'ATIVA',
        },
      ],
    }),
  },
};
const cobrResult = {
  '200': { description: 'Every charge named was read again and applied.', schema: CobrResult },
};

export const partnerRecCallback = selfAuthenticatingRoute(
  callback('rec', 'partner', recBody, recResult),
  handleRecCallback,
);
export const partnerRecCallbackSecretPath = selfAuthenticatingRoute(
  callback('rec', 'partnerSecret', recBody, recResult),
  handleRecCallback,
);
export const partnerCobrCallback = selfAuthenticatingRoute(
  callback('cobr', 'partner', cobrBody, cobrResult),
  handleCobrCallback,
);
export const partnerCobrCallbackSecretPath = selfAuthenticatingRoute(
  callback('cobr', 'partnerSecret', cobrBody, cobrResult),
  handleCobrCallback,
);
