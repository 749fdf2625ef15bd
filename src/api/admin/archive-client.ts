/** POST /admin/clients/{clientId}/archive: closed history to R2 on demand (durable-objects/ledger/archive/archive.ts). */
import { ledgerOf } from '../../../durable-objects/stubs';
import { changeRecord, recorded } from '../../http/audit';
import { json } from '../../http/json';
import type { Input } from '../../http/pipeline';
import { example } from '../../openapi/examples';
import { clientIdParameter } from '../../openapi/parameters';
import { route } from '../route-table';
import { requireClient } from './clients';
import { ArchiveResult } from './openapi-responses';
import { ArchiveSchema } from './schemas';
import { operator } from './shared';

/** The run spans many object transactions; its record commits with the one that concludes it. */
async function handleArchiveClient({
  request,
  rc,
  body,
}: Input<{ body: typeof ArchiveSchema }>): Promise<Response> {
  const client = await requireClient(request, rc.env);
  const { before } = body;
  const audit = changeRecord(rc, 'archiveClient', new URL(request.url).pathname, { after: { before } });
  const archivedTransactions = await ledgerOf(rc.env, client.id).archive(Date.parse(before), audit);
  recorded(rc);
  return json({ archivedTransactions });
}

export const archiveClient = route(
  operator({
    role: 'OPERATOR',
    method: 'post',
    path: '/admin/clients/{clientId}/archive',
    operationId: 'archiveClient',
    summary: "Move a client's closed history to the archive now",
    description:
      'Archives every closed Cash-In (PAID and settled, REFUNDED, EXPIRED, CANCELLED) and closed ' +
      'Cash-Out (COMPLETED, CANCELLED, REFUNDED) settled before `before`, and every ledger entry posted ' +
      "before it, ignoring the retention window, into the client's R2 segments, and answers once done " +
      'with the number of transactions moved. Every read answers exactly as before: GET by any id, the ' +
      'lists, the summaries, statements and balances `at`; a later refund or bank return brings the ' +
      'transaction back. Idempotent: a second call with the same `before` archives 0.',
    parameters: [clientIdParameter],
    body: {
      schema: ArchiveSchema,
      examples: {
        now: example('Everything closed before this instant', { before: '2026-11-25T00:00:00.000Z' }),
      },
    },
    success: {
      '200': {
        description: 'Archiving is done.',
        schema: ArchiveResult,
        examples: { done: example('1,500 transactions archived', { archivedTransactions: 1500 }) },
      },
    },
    errors: ['VALIDATION_ERROR', 'CLIENT_NOT_FOUND'],
  }),
  handleArchiveClient,
);
