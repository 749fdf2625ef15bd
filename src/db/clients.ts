/** D1 queries for clients and their account directory. */
import { and, asc, desc, eq, gt, isNotNull, lt, or } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import type { ClientLimits } from '../domain/limits';
import { NO_PAYER_RULES, type PayerPolicy, type PayerRules } from '../domain/payer-rules';
import { type AuditRow, auditInsert } from './audit';
import { accounts, clients } from './schema';

export type ClientRow = typeof clients.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;

export const d1 = (env: Env) => drizzle(env.DB);

export async function findClient(env: Env, clientId: string): Promise<ClientRow | undefined> {
  return d1(env).select().from(clients).where(eq(clients.id, clientId)).get();
}

/** The client's payer rules (domain/payer-rules.ts); none for a client that is gone. */
export async function payerRulesOf(env: Env, clientId: string): Promise<PayerRules> {
  const row = await d1(env)
    .select({ payerPolicy: clients.payerPolicy, blockedPayerDocuments: clients.blockedPayerDocuments })
    .from(clients)
    .where(eq(clients.id, clientId))
    .get();
  return row ?? NO_PAYER_RULES;
}

/** The client a charge locator's location key names (the unique clients_location_key_idx). */
export async function clientIdByLocationKey(env: Env, locationKey: string): Promise<string | undefined> {
  const row = await d1(env)
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.locationKey, locationKey))
    .get();
  return row?.id;
}

export async function listClientAccounts(env: Env, clientId: string): Promise<AccountRow[]> {
  return d1(env).select().from(accounts).where(eq(accounts.clientId, clientId)).all();
}

/** The client, its accounts and the operator's audit record (./audit.ts), in one batch. */
export async function insertClient(
  env: Env,
  client: ClientRow,
  rows: AccountRow[],
  audit: AuditRow,
): Promise<void> {
  const db = d1(env);
  await db.batch([
    db.insert(clients).values(client),
    ...rows.map((row) => db.insert(accounts).values(row)),
    auditInsert(env, audit),
  ]);
}

export async function updateClient(
  env: Env,
  clientId: string,
  changes: Partial<Omit<ClientRow, 'id'>>,
  audit?: AuditRow,
): Promise<ClientRow | undefined> {
  const db = d1(env);
  const update = db.update(clients).set(changes).where(eq(clients.id, clientId)).returning();
  if (!audit) return update.get();
  // An operator's change and its audit record commit together.
  const [rows] = await db.batch([update, auditInsert(env, audit)]);
  return rows[0];
}

/** One page of client ids in id order (the primary key), for sweeps that visit every client. */
export async function clientIdsAfter(env: Env, after: string, limit: number): Promise<string[]> {
  const rows = await d1(env)
    .select({ id: clients.id })
    .from(clients)
    .where(gt(clients.id, after))
    .orderBy(asc(clients.id))
    .limit(limit)
    .all();
  return rows.map((r) => r.id);
}

/** Clients that receive PIX_INCIDENT_* events (by the partial index on health_webhook_url). */
export async function healthEventReceivers(env: Env) {
  return d1(env)
    .select({ id: clients.id, partners: clients.partners, url: clients.healthWebhookUrl })
    .from(clients)
    .where(isNotNull(clients.healthWebhookUrl))
    .all();
}

export const CLIENTS_PER_PAGE = 25;

export interface ClientSummary {
  id: string;
  name: string;
  partners: string[];
  limits: ClientLimits;
  approvalThresholdCents: number | null;
  rateLimitPerSecond: number | null;
  payerPolicy: PayerPolicy;
  applicationTokenActive: boolean;
  createdAt: number;
}

export interface ClientPage {
  items: ClientSummary[];
  /** `createdAt.id` of the last row, when there are older clients. */
  next?: string;
}

/** Newest first, keyset-paged on (created_at, id): the clients_created_idx index. */
export async function clientPage(env: Env, before: string | undefined): Promise<ClientPage> {
  const match = before ? /^(\d{1,15})\.([\w-]{1,100})$/.exec(before) : null;
  const rows = await d1(env)
    .select({
      id: clients.id,
      name: clients.name,
      partners: clients.partners,
      limits: clients.limits,
      approvalThresholdCents: clients.approvalThresholdCents,
      rateLimitPerSecond: clients.rateLimitPerSecond,
      payerPolicy: clients.payerPolicy,
      applicationTokenActive: clients.applicationTokenActive,
      createdAt: clients.createdAt,
    })
    .from(clients)
    .where(
      match
        ? or(
            lt(clients.createdAt, Number(match[1])),
            and(eq(clients.createdAt, Number(match[1])), lt(clients.id, match[2] as string)),
          )
        : undefined,
    )
    .orderBy(desc(clients.createdAt), desc(clients.id))
    .limit(CLIENTS_PER_PAGE + 1)
    .all();
  const items = rows.slice(0, CLIENTS_PER_PAGE);
  const last = items.at(-1);
  return {
    items,
    ...(rows.length > CLIENTS_PER_PAGE && last && { next: `${last.createdAt}.${last.id}` }),
  };
}
