/** D1 store of the reconciliation sweep's place in each real partner's received-Pix list. */
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { partnerPixCursors } from './schema';

export type PartnerPixCursor = Omit<typeof partnerPixCursors.$inferSelect, 'updatedAt'>;

export async function findPixCursor(env: Env, ispb: string): Promise<PartnerPixCursor | undefined> {
  return drizzle(env.DB).select().from(partnerPixCursors).where(eq(partnerPixCursors.ispb, ispb)).get();
}

export async function savePixCursor(env: Env, cursor: PartnerPixCursor, now: number): Promise<void> {
  const row = { ...cursor, updatedAt: now };
  await drizzle(env.DB)
    .insert(partnerPixCursors)
    .values(row)
    .onConflictDoUpdate({ target: partnerPixCursors.ispb, set: row });
}
