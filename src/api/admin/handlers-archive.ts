/** POST /admin/clients/{clientId}/archive: closed history to R2 on demand (durable-objects/ledger/archive.ts). */

import { ledgerOf } from '../../../durable-objects/stubs';
import { isArchiveEnabled } from '../../config';
import { requireOperator } from '../../http/admin-auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { ProblemError } from '../../http/errors';
import { json } from '../../http/json';
import { parseWith } from '../../http/validation';
import { requireClient } from './handlers-clients';
import { ArchiveSchema } from './schemas';

export async function handleArchiveClient(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  if (!isArchiveEnabled(env))
    throw new ProblemError(
      'SERVICE_UNAVAILABLE',
      'Archiving is off in this deployment (ARCHIVE_ENABLED): lists and summaries do not read the archive yet',
    );
  const { before } = parseWith(ArchiveSchema, await readJsonObject(request));
  const archivedTransactions = await ledgerOf(env, client.id).archive(Date.parse(before));
  return json({ archivedTransactions });
}
