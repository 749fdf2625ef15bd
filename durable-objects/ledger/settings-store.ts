/**
 * The `settings` table: the client's profile (name, statement start, merchant text of its BR Codes),
 * read once at start-up and written at onboarding and by PATCH /clients; and the contexts of stored answers.
 */
import { eq } from 'drizzle-orm';
import type { LedgerDb } from './db';
import type { Profile } from './ledger-context';
import { settings } from './schema';

/** The stored profile, or undefined before onboarding. */
export function readProfile(db: LedgerDb): Profile | undefined {
  return db.select().from(settings).where(eq(settings.key, 'profile')).get()?.value as Profile | undefined;
}

/** Onboarding (idempotent): stores the profile, replacing an earlier one. */
export function storeProfile(db: LedgerDb, profile: Profile): void {
  db.insert(settings)
    .values({ key: 'profile', value: profile })
    .onConflictDoUpdate({ target: settings.key, set: { value: profile } })
    .run();
}

/** Replaces the profile of an onboarded client (a no-op before onboarding). */
export function updateProfile(db: LedgerDb, profile: Profile): void {
  db.update(settings).set({ value: profile }).where(eq(settings.key, 'profile')).run();
}

const CONTEXTS = 'answer-contexts';

/**
 * The texts a client's stored idempotent answers share beyond their transaction (ledger/ledger/idempotency-codec.ts:
 * a BR Code's location prefix, the merchant's name and city), in the order first seen; an answer names one by index.
 */
export function readAnswerContexts(db: LedgerDb): string[] {
  return (
    (db.select().from(settings).where(eq(settings.key, CONTEXTS)).get()?.value as string[] | undefined) ?? []
  );
}

/** Appends a context, in the transaction of the answer that first names it. */
export function storeAnswerContexts(db: LedgerDb, contexts: string[]): void {
  db.insert(settings)
    .values({ key: CONTEXTS, value: contexts })
    .onConflictDoUpdate({ target: settings.key, set: { value: contexts } })
    .run();
}
