/**
 * A real partner's Pix webhook callbacks (API Pix `{webhookUrl}/pix`): `POST
 * /partners/{ispb}/webhook/pix` over mTLS, or `POST /partners/{ispb}/webhook/{secret}/pix`. An
 * ISPB that is not a declared `bcb-api-pix` partner answers 404 NOT_FOUND like any unknown route;
 * a declared partner's callback that does not authenticate answers 401 UNAUTHORIZED. Each Pix
 * named is read again from the partner before anything moves (src/cron/partner-notices.ts).
 *
 * Both paths are one operation: the same body, the same handler; only the authentication differs.
 * The body is a hint only: nothing in it is trusted.
 */
import * as v from 'valibot';
import { applyPixHints } from '../../cron/partner-notices';
import { readJsonObject } from '../../http/body';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import type { ApiRequest, RequestContext } from '../../http/request-context';
import { parseWith } from '../../http/validation';
import { log } from '../../infra/log';
import { example } from '../../openapi/examples';
import { inlineSchema } from '../../openapi/json-schema';
import type { OperationSpec } from '../../openapi/operation';
import { ispbParameter, parameter } from '../../openapi/parameters';
import { payerOf } from '../../partners/bcb-api-pix/adapter';
import { named } from '../../schemas/named';
import { selfAuthenticatingRoute } from '../route-table';
import { authenticatedPartner } from './callback-auth';

/** More than a PSP groups into one callback; bounds the partner calls one request can cause. */
const MAX_CALLBACK_PIX = 500;

/**
 * The body (requestBodies.WebhookPixBody of bacen/pix-api): `{ pix: [Pix, …] }`. Only each Pix's
 * end-to-end id is used, as a hint of what to read again from the partner; the rest of the body is
 * never trusted, so it is not validated.
 */
const PixCallbackSchema = named(
  'PartnerPixCallback',
  v.object({
    pix: v.pipe(
      v.array(
        v.looseObject({
          endToEndId: v.pipe(
            v.string('endToEndId must be a string'),
            v.regex(/^[a-zA-Z0-9]{32}$/, 'endToEndId must be 32 letters or digits'),
          ),
          // The standard's other fields, named for the document; read again from the partner instead.
          txid: v.optional(v.unknown()),
          valor: v.optional(v.unknown()),
          horario: v.optional(v.unknown()),
          devolucoes: v.optional(v.unknown()),
        }),
        'pix must be an array of Pix',
      ),
      v.maxLength(MAX_CALLBACK_PIX, `pix must have at most ${MAX_CALLBACK_PIX} items`),
    ),
  }),
);

const OUTCOMES = [
  'paid',
  'already-paid',
  'unmatched',
  'amount-mismatch',
  'not-payable',
  'duplicate',
  'refund-checked',
  'returned',
  'devolution-recorded',
  'already-recorded',
  'not-confirmed',
  'deferred',
] as const;

const Result = inlineSchema(
  v.object({
    pix: v.array(
      v.object({
        endToEndId: v.string(),
        outcomes: v.pipe(
          v.array(v.picklist(OUTCOMES)),
          v.description(
            'What the partner confirmed and what was done: `paid` (Cash-In PAID, `CASHIN_PAID` ' +
              'sent), `already-paid`, `unmatched` (no Cash-In of ours), `amount-mismatch`, `not-payable` and ' +
              '`duplicate` (no Cash-In can take it: held for the payer as an unapplied receipt, see GET ' +
              '/admin/unapplied, and returned through the partner devolution; the Cash-In is untouched), ' +
              '`refund-checked` (our refund read again at the partner), `returned` (a bank return: Cash-In ' +
              'REFUNDED), `devolution-recorded` (a further devolution booked), `already-recorded` (this ' +
              'devolution, or this unapplied receipt, is booked already), `not-confirmed` (the partner does not ' +
              'know this Pix: nothing moved), `deferred` (beyond the first 50 Pix of one callback: not read ' +
              'now; the sweep of received Pix reads it within minutes).',
          ),
        ),
      }),
    ),
  }),
);

const DESCRIPTION =
  `A real partner's API Pix webhook: a POST of \`{ "pix": [ … ] }\` whenever ` +
  `Pix are received or a devolution ends. The body is a **hint** only: each \`endToEndId\` is read ` +
  `again from the partner (\`GET /pix/{e2eid}\`) and only the partner's answer moves money, once ` +
  `(by end-to-end id and devolution id), so a forged or replayed callback moves nothing. An ISPB ` +
  `that is not a declared \`bcb-api-pix\` partner answers 404 \`NOT_FOUND\` like any unknown route; ` +
  `a callback that does not authenticate answers 401 \`UNAUTHORIZED\`; 503 \`SERVICE_UNAVAILABLE\` ` +
  `(\`Retry-After\`) when the partner could not be asked about some Pix (the others are applied), ` +
  `so the PSP sends it again.`;

const callback = (spec: Pick<OperationSpec, 'path' | 'operationId' | 'summary' | 'auth' | 'parameters'>) =>
  ({
    method: 'post',
    tag: 'Settlement partners',
    description: `${DESCRIPTION}\n\n${
      spec.auth === 'partner'
        ? "Authentication: the partner's client certificate (mTLS at the edge; the partner's " +
          '`webhookCertSubject`, and `webhookCertIssuer` when set, must match).'
        : "Authentication: the partner's secret `PARTNER_<ISPB>_WEBHOOK_SECRET` as the `secret` " +
          'path segment, for partners that cannot present a client certificate.'
    }`,
    body: {
      schema: PixCallbackSchema,
      examples: {
        received: example('One Pix received', {
          pix: [
            {
              endToEndId: 'E60701190202611251200abcdefghijk',
              txid: 'K3b9Qe2LmN8pR4sT6uV1wXyZa0cDfGhJk',
              valor: '150.25',
              horario: '2026-11-25T15:00:00.000Z',
            },
          ],
        }),
      },
    },
    success: { '200': { description: 'Every Pix named was read again and applied.', schema: Result } },
    errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
    ...spec,
  }) satisfies OperationSpec;

/** Partner reads one callback may cause (a PSP groups a few Pix per callback). */
export const MAX_READS_PER_CALLBACK = 50;

async function handlePartnerPixCallback(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  const partner = authenticatedPartner(request, env);
  const ispb = partner.ispb;
  const body = parseWith(PixCallbackSchema, await readJsonObject(request));
  // Each hint costs a call to the partner: one callback asks at most MAX_READS_PER_CALLBACK, and the
  // rest are left to the sweep of received Pix (src/cron/partner-notices.ts), which reads
  // them by time window within minutes.
  const hinted = [...new Set(body.pix.map((p) => p.endToEndId))];
  const reportedPayers = new Map(
    partner.reportsPayer
      ? body.pix.flatMap((p) => {
          const payer = payerOf(p);
          return payer ? [[p.endToEndId, payer] as const] : [];
        })
      : [],
  );
  const results: Record<string, string[]> = await applyPixHints(
    env,
    partner,
    hinted.slice(0, MAX_READS_PER_CALLBACK),
    reportedPayers,
  );
  for (const endToEndId of hinted.slice(MAX_READS_PER_CALLBACK)) results[endToEndId] = ['deferred'];
  if (hinted.length > MAX_READS_PER_CALLBACK)
    log('warn', 'partner callback hinted more Pix than one callback reads', { ispb, hinted: hinted.length });
  const pix = Object.entries(results).map(([endToEndId, outcomes]) => ({ endToEndId, outcomes }));
  // The partner could not confirm some of them now: a non-2xx makes the PSP send the callback
  // again later (the rest are applied already and apply once), and the sweep catches them anyway.
  if (pix.some((p) => p.outcomes.includes('unavailable')))
    throw new ProblemError(
      'SERVICE_UNAVAILABLE',
      'The partner could not confirm every Pix now; retry later',
      {
        headers: { 'retry-after': '60' },
      },
    );
  return json({ pix });
}

export const partnerPixCallback = selfAuthenticatingRoute(
  callback({
    path: '/partners/{ispb}/webhook/pix',
    operationId: 'partnerPixCallback',
    summary: 'Pix callback from a partner (mTLS)',
    auth: 'partner',
    parameters: [ispbParameter],
  }),
  handlePartnerPixCallback,
);

export const partnerPixCallbackSecretPath = selfAuthenticatingRoute(
  callback({
    path: '/partners/{ispb}/webhook/{secret}/pix',
    operationId: 'partnerPixCallbackSecretPath',
    summary: 'Pix callback from a partner (secret path)',
    auth: 'partnerSecret',
    parameters: [
      ispbParameter,
      parameter(
        'secret',
        'path',
        v.string(),
        "The partner's webhook secret (PARTNER_<ISPB>_WEBHOOK_SECRET).",
      ),
    ],
  }),
  handlePartnerPixCallback,
);
