/** The clients with accounts at one partner, paged by id (accounts_ispb_client_idx): memory stays flat. */
import { and, asc, eq, gt } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { accounts } from './schema';

export async function clientIdsAtPartnerAfter(
  env: Env,
  ispb: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await drizzle(env.DB)
    .selectDistinct({ id: accounts.clientId })
    .from(accounts)
    .where(and(eq(accounts.ispb, ispb), gt(accounts.clientId, after)))
    .orderBy(asc(accounts.clientId))
    .limit(limit)
    .all();
  return rows.map((r) => r.id);
}
