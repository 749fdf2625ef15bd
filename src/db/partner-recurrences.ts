/**
 * The `partner_recurrences` store: which client a real partner's recurrence (its `idRec`) belongs
 * to, written when the partner answers the recurrence and read by its `rec` callbacks.
 */
import { and, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { partnerRecurrences } from './schema';

export async function recordPartnerRecurrence(env: Env, ispb: string, idRec: string, clientId: string) {
  await drizzle(env.DB)
    .insert(partnerRecurrences)
    .values({ idRec, ispb, clientId, createdAt: Date.now() })
    .onConflictDoNothing()
    .run();
}

/** The client of this partner's recurrence, or undefined for an id this gateway never recorded. */
export async function clientOfPartnerRecurrence(
  env: Env,
  ispb: string,
  idRec: string,
): Promise<string | undefined> {
  const row = await drizzle(env.DB)
    .select({ clientId: partnerRecurrences.clientId })
    .from(partnerRecurrences)
    .where(and(eq(partnerRecurrences.idRec, idRec), eq(partnerRecurrences.ispb, ispb)))
    .get();
  return row?.clientId;
}
