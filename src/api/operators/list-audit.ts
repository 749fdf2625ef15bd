/**
 * GET /admin/audit (docs/contract.md, Operators and the audit trail): the trail, newest first, with
 * a tamper-evident cursor like the other lists. Every role may read it.
 */
import * as v from 'valibot';
import { listAudit, type StoredAudit } from '../../db/audit';
import { decodeCursor, encodeCursor } from '../../domain/cursor';
import { parseBound } from '../../domain/period';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { validationError } from '../../http/validation';
import { example } from '../../openapi/examples';
import { inlineSchema } from '../../openapi/json-schema';
import { parameter } from '../../openapi/parameters';
import { named } from '../../schemas/named';
import { operator } from '../admin/shared';
import { route } from '../route-table';
import { AuditQuerySchema } from './schemas';

const NOTES: Record<string, string> = {
  from: 'Recorded at or after (a date, America/Sao_Paulo, or an ISO 8601 timestamp).',
  to: 'Recorded at or before (a date covers the whole day).',
  actor: 'Only records of this operator: its operatorId or its email.',
  action:
    'Only records of this action: an operationId (`patchClient`) or a console action (`console.redeliver`).',
  limit: 'Page size, 1 to 500 (default 50).',
  cursor: '`nextCursor` of the previous page, with the same filters.',
};

export const AuditRecord = named(
  'AuditRecord',
  v.object({
    id: v.string(),
    at: v.pipe(v.string(), v.isoTimestamp()),
    actor: v.object({
      kind: v.picklist(['ADMIN_TOKEN', 'OPERATOR', 'ACCESS']),
      operatorId: v.optional(v.string()),
      email: v.optional(v.string()),
    }),
    action: v.string(),
    target: v.string(),
    before: v.optional(v.unknown()),
    after: v.optional(v.unknown()),
    result: v.string(),
    requestId: v.string(),
  }),
  {
    action: 'The operationId of the request, or `console.<action>` for the console.',
    target: 'What it acted on: the request path, or `operator:<id>`.',
    result: '`OK`, or the Problem code it answered (`FORBIDDEN`: refused for its role; nothing changed).',
    requestId: 'The `x-request-id` of the answer.',
  },
);

export type AuditRecordBody = v.InferOutput<typeof AuditRecord>;

export const auditView = (row: StoredAudit): AuditRecordBody => ({
  id: row.id,
  at: new Date(row.at).toISOString(),
  actor: {
    kind: row.actorKind,
    ...(row.operatorId !== null && { operatorId: row.operatorId }),
    ...(row.email !== null && { email: row.email }),
  },
  action: row.action,
  target: row.target,
  ...(row.before !== null && { before: row.before }),
  ...(row.after !== null && { after: row.after }),
  result: row.result,
  requestId: row.requestId,
});

/** Cursors of the trail are bound to it, not to a client. */
const CURSOR_OWNER = 'operator:audit';

async function handleListAudit({ env, query }: Input<{ query: typeof AuditQuerySchema }>): Promise<Response> {
  const from = query.from === undefined ? undefined : parseBound(query.from, 'from');
  const to = query.to === undefined ? undefined : parseBound(query.to, 'to');
  // The filters are part of the walk, so a cursor cannot be replayed under other ones.
  const walk = {
    list: `audit:${query.actor ?? ''}:${query.action ?? ''}`,
    order: 'desc' as const,
    from: from ?? 0,
    to: to ?? 0,
  };
  let after: number | undefined;
  if (query.cursor !== undefined) {
    const cursor = await decodeCursor(query.cursor, CURSOR_OWNER, env.JWT_SECRET);
    if (!cursor || cursor.list !== walk.list || cursor.from !== walk.from || cursor.to !== walk.to)
      throw validationError({
        cursor: ['cursor is not valid for this list and its filters; copy it verbatim'],
      });
    after = cursor.position.seq;
  }
  const page = await listAudit(
    env,
    {
      ...(from !== undefined && { from }),
      ...(to !== undefined && { to }),
      ...(query.actor !== undefined && {
        actor: query.actor.toLowerCase().includes('@') ? query.actor.toLowerCase() : query.actor,
      }),
      ...(query.action !== undefined && { action: query.action }),
    },
    query.limit,
    after,
  );
  const nextCursor =
    page.next !== undefined
      ? await encodeCursor(
          { ...walk, position: { direction: 'next', time: 0, seq: page.next } },
          CURSOR_OWNER,
          env.JWT_SECRET,
        )
      : null;
  return json({ items: page.items.map(auditView), nextCursor });
}

export const listAuditRecords = route(
  operator({
    role: 'VIEWER',
    query: AuditQuerySchema,
    method: 'get',
    path: '/admin/audit',
    operationId: 'listAuditRecords',
    summary: 'Read the audit trail',
    description:
      'Newest first. One record per changing /admin or console request and per request refused ' +
      'for its role, written with the change itself. Records are never edited or deleted and are kept ' +
      'at least 5 years.',
    parameters: Object.entries(AuditQuerySchema.entries).map(([name, schema]) =>
      parameter(name, 'query', schema, NOTES[name] ?? name, false),
    ),
    success: {
      '200': {
        description: 'One page of records; `nextCursor` is null on the last page.',
        schema: inlineSchema(v.object({ items: v.array(AuditRecord), nextCursor: v.nullable(v.string()) })),
        examples: {
          page: example('A limit raised', {
            items: [
              {
                id: 'aud_0b7c9f2e-3d1a-4e5b-8c6d-7f8a9b0c1d2e',
                at: '2026-11-28T12:30:00.000Z',
                actor: {
                  kind: 'OPERATOR',
                  operatorId: 'op_5b0c2f3e8a9d4c1b',
                  email: 'ana@connectpsp.com.br',
                },
                action: 'patchClient',
                target: '/admin/clients/3f9a2c1b-7d4e-4f8a-9b6c-1e2d3c4b5a69',
                before: { limits: { daily: 50000 } },
                after: { limits: { daily: 80000 } },
                result: 'OK',
                requestId: '6a1f0c9e-2b3d-4c5e-8f7a-9b0c1d2e3f4a',
              },
            ],
            nextCursor: null,
          }),
        },
      },
    },
    errors: ['VALIDATION_ERROR'],
  }),
  handleListAudit,
);
