/** POST /admin/clients/{clientId}/archive: closed history to R2 on demand (durable-objects/ledger/archive.ts). */

import { ledgerOf } from '../../../durable-objects/stubs';
import { ArchiveSchema } from '../../schemas/admin';
import { requireOperator } from '../admin-auth';
import { readJsonObject } from '../body';
import type { ApiRequest, RequestContext } from '../context';
import { json } from '../json';
import { parseWith } from '../validation';
import { requireClient } from './admin-clients';

export async function handleArchiveClient(request: ApiRequest, { env }: RequestContext): Promise<Response> {
  requireOperator(request, env);
  const client = await requireClient(request, env);
  const { before } = parseWith(ArchiveSchema, await readJsonObject(request));
  const archivedTransactions = await ledgerOf(env, client.id).archive(Date.parse(before));
  return json({ archivedTransactions });
}
