/** POST /admin/clients/{clientId}/archive: closed history to R2 on demand (durable-objects/ledger/archive/archive.ts). */

import { ledgerOf } from '../../../durable-objects/stubs';
import { requireOperator } from '../../http/admin-auth';
import { readJsonObject } from '../../http/body';
import type { ApiRequest, RequestContext } from '../../http/context';
import { json } from '../../http/json';
import { parseWith } from '../../http/validation';
import { requireClient } from './handlers-clients';
import { ArchiveSchema } from './schemas';

export async function handleArchiveClient(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  const { before } = parseWith(ArchiveSchema, await readJsonObject(request));
  const archivedTransactions = await ledgerOf(env, client.id).archive(Date.parse(before));
  return json({ archivedTransactions });
}
