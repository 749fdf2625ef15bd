/**
 * GET /admin/unapplied: money a real partner reported that no Cash-In could take, and its return.
 * D1 only: no client's object is woken.
 */
import * as v from 'valibot';
import { listUnapplied } from '../../db/unapplied';
import { decodeCursor, encodeCursor } from '../../domain/cursor';
import { parseBound } from '../../domain/period';
import { UNAPPLIED_REASONS, UNAPPLIED_STATUSES, unappliedView } from '../../domain/unapplied';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { validationError } from '../../http/validation';
import { example } from '../../openapi/examples';
import { inlineSchema } from '../../openapi/json-schema';
import { parameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { UnappliedQuerySchema } from './schemas';

const UNAPPLIED_NOTES: Record<string, string> = {
  status: 'Only receipts whose return is in this state: PROCESSING (being returned), RETURNED, FAILED.',
  ispb: 'Only receipts of this partner (its ISPB).',
  from: 'Received at or after (a date, America/Sao_Paulo, or an ISO 8601 timestamp).',
  to: 'Received at or before (a date covers the whole day).',
  limit: 'Page size, 1 to 500 (default 50).',
  cursor: '`nextCursor` of the previous page, with the same `from` and `to`.',
};

const Money = v.pipe(v.number(), v.description('BRL, 2 decimal places'));

const Unapplied = v.object({
  id: v.string(),
  ispb: v.string(),
  endToEndId: v.pipe(v.string(), v.description('The payment as the partner reported it.')),
  txid: v.optional(v.pipe(v.string(), v.description('The txid the payment named, when it named one.'))),
  clientId: v.optional(
    v.pipe(
      v.string(),
      v.description("The client the txid names: the receipt is held in that client's suspense account."),
    ),
  ),
  amount: Money,
  receivedAt: v.pipe(v.string(), v.isoTimestamp()),
  reason: v.picklist(UNAPPLIED_REASONS),
  return: v.object({
    id: v.pipe(
      v.string(),
      v.description(
        'The devolution id at the partner, derived from the payment: a retry asks for the same one.',
      ),
    ),
    status: v.picklist(UNAPPLIED_STATUSES),
    endToEndId: v.optional(
      v.pipe(v.string(), v.description('The return as the network settled it (RtrId).')),
    ),
    returnedAt: v.optional(v.pipe(v.string(), v.isoTimestamp())),
    failure: v.optional(v.pipe(v.string(), v.description('Why the partner did not return it (FAILED).'))),
    readUntil: v.optional(
      v.pipe(
        v.string(),
        v.isoTimestamp(),
        v.description(
          'FAILED only: until when the gateway keeps reading the devolution at the partner (the ' +
            'MED window, 90 days from the payment). Before it, the network may still settle it and the ' +
            'receipt turns RETURNED by itself: do not return the money by other means. After it, the operator ' +
            'acts.',
        ),
      ),
    ),
  }),
});

/** Cursors of this list are bound to the operator, not to a client. */
const CURSOR_OWNER = 'operator:unapplied';

async function handleListUnapplied({
  env,
  query,
}: Input<{ query: typeof UnappliedQuerySchema }>): Promise<Response> {
  const from = query.from === undefined ? undefined : parseBound(query.from, 'from');
  const to = query.to === undefined ? undefined : parseBound(query.to, 'to');
  const walk = { list: 'unapplied', order: 'desc' as const, from: from ?? 0, to: to ?? 0 };
  let after: { time: number; seq: number } | undefined;
  if (query.cursor !== undefined) {
    const cursor = await decodeCursor(query.cursor, CURSOR_OWNER, env.JWT_SECRET);
    if (!cursor || cursor.list !== walk.list || cursor.from !== walk.from || cursor.to !== walk.to)
      throw validationError({ cursor: ['cursor is not valid for this list and from/to; copy it verbatim'] });
    after = cursor.position;
  }
  const page = await listUnapplied(
    env,
    {
      ...(query.status !== undefined && { status: query.status }),
      ...(query.ispb !== undefined && { ispb: query.ispb }),
      ...(from !== undefined && { from }),
      ...(to !== undefined && { to }),
    },
    query.limit,
    after,
  );
  const nextCursor = page.next
    ? await encodeCursor(
        { ...walk, position: { direction: 'next', ...page.next } },
        CURSOR_OWNER,
        env.JWT_SECRET,
      )
    : null;
  return json({ items: page.items.map(unappliedView), nextCursor });
}

export const listUnappliedReceipts = route(
  {
    method: 'get',
    path: '/admin/unapplied',
    operationId: 'listUnappliedReceipts',
    summary: 'List money no Cash-In could take, and its return',
    description:
      'Newest first. Every Pix a real partner reported (callback or sweep) that no Cash-In could ' +
      'take becomes an unapplied receipt in the transaction that decided so: `DUPLICATE` (a second ' +
      'payment of a paid charge), `NOT_PAYABLE` (a payment after a cancel or expiry), `AMOUNT_MISMATCH` ' +
      "(another amount than the charge's), `UNKNOWN_CHARGE` (a txid we never issued). It is held for " +
      'the payer in a suspense account (of the client its txid names, else of the partner), never in a ' +
      "client's balance, and returned in full through the partner's devolution under `return.id`. " +
      '`return.status` ends RETURNED when the partner confirms, or FAILED with `return.failure`. A ' +
      'FAILED devolution is never asked again by itself, but it is read again at the partner until ' +
      '`return.readUntil` (the MED window): if the network settles it after all, the receipt turns ' +
      'RETURNED. Only a FAILED receipt past `return.readUntil` needs the operator.',
    tag: 'Operator',
    auth: 'operator',
    role: 'VIEWER',
    query: UnappliedQuerySchema,
    parameters: Object.entries(UnappliedQuerySchema.entries).map(([name, schema]) =>
      parameter(name, 'query', schema, UNAPPLIED_NOTES[name] ?? name, false),
    ),
    success: {
      '200': {
        description: 'One page of receipts; `nextCursor` is null on the last page.',
        schema: inlineSchema(v.object({ items: v.array(Unapplied), nextCursor: v.nullable(v.string()) })),
        examples: {
          page: example('A second payment of a paid charge, returned', {
            items: [
              {
                id: 'UNR3F1C0A9B2E4D6F8A1B3C5D7E9F0A1',
                ispb: '09089356',
                endToEndId: 'E60701190202611251200ABCDEFGHIJK',
                txid: '1bJ8xY2kPq9LmN3rT5vW7zA0cE4gH6iKsd',
                clientId: '3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
                amount: 150.25,
                receivedAt: '2026-11-25T15:00:00.000Z',
                reason: 'DUPLICATE',
                return: {
                  id: 'D09089356202611251500A1B2C3D4E5F',
                  status: 'RETURNED',
                  endToEndId: 'D09089356202611251500A1B2C3D4E5F',
                  returnedAt: '2026-11-25T15:00:04.000Z',
                },
              },
            ],
            nextCursor: null,
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR'],
  },
  handleListUnapplied,
);
